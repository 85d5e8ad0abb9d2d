import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Merges JUnit reports (such as one per CI shard) into one.
///
/// Suites with the same name are joined; test cases keep their order, report by report and
/// within each report as written. Every count and time is recomputed from the test cases, so
/// the merged totals add up whatever the inputs said.
package enum JUnitMerge {
    /// Why a report could not be merged.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The name of the input (usually its path).
        package var input: String
        /// What is wrong with it.
        package var reason: String

        /// Creates a failure.
        package init(input: String, reason: String) {
            self.input = input
            self.reason = reason
        }

        /// `input: reason`.
        package var description: String { "\(input): \(reason)" }
    }

    /// Merges reports, given as their names and bytes, into one JUnit document.
    /// - Throws: ``Failure`` when an input is not XML or its root is neither
    ///   `<testsuites>` nor `<testsuite>`.
    package static func merge(_ inputs: [(name: String, data: Data)]) throws(Failure) -> String {
        try mergedTree(inputs).document
    }

    /// The merged report as an element tree.
    package static func mergedTree(_ inputs: [(name: String, data: Data)]) throws(Failure) -> XMLMarkup {
        var order: [String] = []
        var suites: [String: XMLMarkup] = [:]
        for input in inputs {
            let root = try parse(input.data, name: input.name)
            let found: [XMLMarkup]
            switch root.name {
            case "testsuites": found = root.elements.filter { $0.name == "testsuite" }.flatMap(flatten)
            case "testsuite": found = flatten(root)
            default:
                throw Failure(input: input.name, reason: "the root element is <\(root.name)>, not <testsuites> or <testsuite>")
            }
            for suite in found {
                let name = suite[attribute: "name"] ?? ""
                if var existing = suites[name] {
                    existing.children += suite.children
                    suites[name] = existing
                } else {
                    order.append(name)
                    suites[name] = suite
                }
            }
        }
        let merged = order.compactMap { suites[$0] }.map(JUnitReport.recount)
        return JUnitReport.root(suites: merged)
    }

    /// A suite without nested suites, followed by its nested suites flattened likewise.
    private static func flatten(_ suite: XMLMarkup) -> [XMLMarkup] {
        var own = suite
        own.children = suite.children.filter {
            if case .element(let element) = $0 { return element.name != "testsuite" }
            return true
        }
        return [own] + suite.elements.filter { $0.name == "testsuite" }.flatMap(flatten)
    }

    /// Parses a document into an element tree, dropping whitespace between elements.
    package static func parse(_ data: Data, name: String) throws(Failure) -> XMLMarkup {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        guard ok, let root = builder.root else {
            let reason = builder.failure ?? parser.parserError.map { "not well-formed XML (\($0.localizedDescription))" }
            throw Failure(
                input: name,
                reason: (reason ?? "not well-formed XML") + " near line \(parser.lineNumber), column \(parser.columnNumber)"
            )
        }
        return root
    }
}

/// Builds an ``XMLMarkup`` tree from `XMLParser` events.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLMarkup] = []
    private(set) var root: XMLMarkup?
    private(set) var failure: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        // The parser hands attributes over unordered; sorting keeps the output stable, and the
        // attributes the merge recomputes are rewritten in place anyway.
        let attributes = attributeDict.sorted { order($0.key) < order($1.key) }
            .map { XMLMarkup.Attribute($0.key, $0.value) }
        stack.append(XMLMarkup(elementName, attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { appendText(string) }

    func parser(_ parser: XMLParser, foundCDATA cdataBlock: Data) {
        appendText(String(decoding: cdataBlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard var element = stack.popLast() else { return }
        if !element.elements.isEmpty {
            element.children = element.children.filter {
                if case .text(let text) = $0 { return !text.allSatisfy(\.isWhitespace) }
                return true
            }
        }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(.element(element))
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil { failure = "not well-formed XML (\(parseError.localizedDescription))" }
    }

    private func appendText(_ text: String) {
        guard !stack.isEmpty else { return }
        let last = stack.count - 1
        if case .text(let previous)? = stack[last].children.last {
            stack[last].children[stack[last].children.count - 1] = .text(previous + text)
        } else {
            stack[last].children.append(.text(text))
        }
    }

    /// Well-known JUnit attributes first, in the order the schema lists them, then the rest by name.
    private func order(_ name: String) -> (Int, String) {
        let known = ["name", "classname", "tests", "failures", "errors", "skipped", "time", "message", "type"]
        return (known.firstIndex(of: name) ?? known.count, name)
    }
}
