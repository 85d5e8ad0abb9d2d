import Foundation

/// Reads HAR 1.2 leniently, because exporters differ: optional fields may be missing, timings may
/// be `-1`, bodies may be base64, custom fields start with `_`, entries may lack a `response` and
/// files may have no `pages`. What cannot be read at all is a ``LoadIssue`` with file, line,
/// column and JSON path, never a crash.
public struct HARReader: Sendable {
    /// The largest file read (bigger captures should be cut with the exporting tool first).
    public static let maximumBytes = 256 * 1024 * 1024
    /// The most entries one file may hold.
    public static let maximumEntries = 200_000

    /// The file name used in issue locations.
    public let file: String
    /// The size bound this reader applies.
    public let maximumBytes: Int
    /// The entry bound this reader applies.
    public let maximumEntries: Int

    /// Creates a reader naming `file` in issues, with the default bounds unless told otherwise.
    public init(file: String, maximumBytes: Int = HARReader.maximumBytes, maximumEntries: Int = HARReader.maximumEntries) {
        self.file = file
        self.maximumBytes = maximumBytes
        self.maximumEntries = maximumEntries
    }

    /// Parses a HAR document.
    /// - Throws: a ``LoadIssue`` for text that is not JSON, too big, too deep, or not shaped like HAR.
    public func read(_ data: Data) throws(LoadIssue) -> HARLog {
        guard data.count <= maximumBytes else {
            throw issue(
                nil, at: JSONPath.root,
                "the file has \(data.count) bytes, more than the \(maximumBytes) a trace may have",
                hint: "export only the requests of the bug (filter by host or time in the capturing tool)")
        }
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw issue(nil, at: JSONPath.root, "the file is empty", hint: "export the capture again as HAR")
        }
        let root = try JSONTextParser(data: data, file: file).parseDocument()
        let log = try member("log", of: root, at: JSONPath.root, as: "an object")
        let logPath = JSONPath.appending(JSONPath.root, key: "log")
        guard log.members != nil else { throw typeIssue(log, at: logPath, expected: "an object") }
        let creator = log["creator"]?["name"]?.value.stringValue ?? ""
        let entriesPath = JSONPath.appending(logPath, key: "entries")
        let entriesNode = try member("entries", of: log, at: logPath, as: "an array")
        guard let elements = entriesNode.elements else { throw typeIssue(entriesNode, at: entriesPath, expected: "an array of entries") }
        guard elements.count <= maximumEntries else {
            throw issue(
                entriesNode, at: entriesPath, "\(elements.count) entries are more than the \(maximumEntries) a trace may have",
                hint: "export only the requests of the bug")
        }
        var entries: [HARLog.Entry] = []
        entries.reserveCapacity(elements.count)
        var lastStart = Date(timeIntervalSince1970: 0)
        let dates = DateReader()
        for (index, node) in elements.enumerated() {
            let entry = try readEntry(node, at: JSONPath.appending(entriesPath, index: index), dates: dates, fallbackStart: lastStart)
            lastStart = entry.started
            entries.append(entry)
        }
        return HARLog(creator: creator, entries: entries)
    }

    private func readEntry(_ node: JSONNode, at path: String, dates: DateReader, fallbackStart: Date) throws(LoadIssue) -> HARLog.Entry {
        guard node.members != nil else { throw typeIssue(node, at: path, expected: "an entry object") }
        let requestNode = try member("request", of: node, at: path, as: "an object")
        let request = try readRequest(requestNode, at: JSONPath.appending(path, key: "request"))
        var response: HARLog.Response?
        if let responseNode = node["response"], !responseNode.value.isNull {
            response = try readResponse(responseNode, at: JSONPath.appending(path, key: "response"))
        }
        // A missing or unreadable start keeps the previous entry's, so order survives.
        let started = node["startedDateTime"]?.value.stringValue.flatMap(dates.date(from:)) ?? fallbackStart
        var time = nonNegative(node["time"]?.value.numberValue)
        if time == 0, let timings = node["timings"]?.value.objectValue {
            time = ["blocked", "dns", "connect", "send", "wait", "receive"].reduce(0) { $0 + nonNegative(timings[$1]?.numberValue) }
        }
        let inFlight = node["_inFlight"]?.value.intValue.flatMap { $0 >= 0 ? $0 : nil }
        return HARLog.Entry(started: started, time: time, request: request, response: response, inFlight: inFlight)
    }

    private func readRequest(_ node: JSONNode, at path: String) throws(LoadIssue) -> HARLog.Request {
        guard node.members != nil else { throw typeIssue(node, at: path, expected: "an object") }
        let method = try string("method", of: node, at: path).uppercased()
        let url = try string("url", of: node, at: path)
        let headers = try fields("headers", of: node, at: path)
        var body: String?
        var mimeType: String?
        if let postData = node["postData"], postData.members != nil {
            mimeType = postData["mimeType"]?.value.stringValue
            if let text = postData["text"]?.value.stringValue {
                body = text
            } else if let params = postData["params"]?.value.arrayValue {
                // Form bodies exported as parameters only: put the form back together.
                body = params.compactMap { param -> String? in
                    guard let name = param["name"]?.stringValue else { return nil }
                    return formEscape(name) + "=" + formEscape(param["value"]?.stringValue ?? "")
                }.joined(separator: "&")
            }
        }
        return HARLog.Request(method: method, url: url, headers: headers, body: body, mimeType: mimeType)
    }

    private func readResponse(_ node: JSONNode, at path: String) throws(LoadIssue) -> HARLog.Response? {
        guard node.members != nil else { throw typeIssue(node, at: path, expected: "an object") }
        guard let statusNode = node["status"] else { return nil }
        guard let status = statusNode.value.intValue else {
            throw typeIssue(statusNode, at: JSONPath.appending(path, key: "status"), expected: "an integer status")
        }
        // Browsers write status 0 for requests that got no answer.
        guard (100...599).contains(status) else { return nil }
        let headers = try fields("headers", of: node, at: path)
        var body = Data()
        var mimeType: String?
        if let content = node["content"], content.members != nil {
            mimeType = content["mimeType"]?.value.stringValue
            if let text = content["text"]?.value.stringValue {
                if content["encoding"]?.value.stringValue?.lowercased() == "base64" {
                    guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                        throw issue(
                            content["text"], at: JSONPath.appending(JSONPath.appending(path, key: "content"), key: "text"),
                            "the body says it is base64 but is not", hint: "remove 'encoding' or export the capture again")
                    }
                    body = decoded
                } else {
                    body = Data(text.utf8)
                }
            }
        }
        return HARLog.Response(status: status, headers: headers, body: body, mimeType: mimeType)
    }

    private func fields(_ key: String, of node: JSONNode, at path: String) throws(LoadIssue) -> [HARLog.Field] {
        guard let list = node[key], !list.value.isNull else { return [] }
        let listPath = JSONPath.appending(path, key: key)
        guard let elements = list.elements else { throw typeIssue(list, at: listPath, expected: "an array of {name, value}") }
        var result: [HARLog.Field] = []
        for (index, element) in elements.enumerated() {
            let elementPath = JSONPath.appending(listPath, index: index)
            guard element.members != nil else { throw typeIssue(element, at: elementPath, expected: "an object {name, value}") }
            let name = try string("name", of: element, at: elementPath)
            // HTTP/2 pseudo-headers (`:authority`) are no header fields a client sets.
            guard !name.hasPrefix(":") else { continue }
            let value = element["value"]?.value.stringValue ?? element["value"]?.value.compactText ?? ""
            result.append(HARLog.Field(name, value))
        }
        return result
    }

    private func member(_ key: String, of node: JSONNode, at path: String, as expected: String) throws(LoadIssue) -> JSONNode {
        guard let found = node[key] else {
            throw issue(node, at: path, "missing '\(key)' (\(expected))", hint: "is this a HAR 1.2 file? export the capture again as HAR")
        }
        return found
    }

    private func string(_ key: String, of node: JSONNode, at path: String) throws(LoadIssue) -> String {
        let found = try member(key, of: node, at: path, as: "a string")
        guard let text = found.value.stringValue else {
            throw typeIssue(found, at: JSONPath.appending(path, key: key), expected: "a string")
        }
        return text
    }

    private func typeIssue(_ node: JSONNode, at path: String, expected: String) -> LoadIssue {
        issue(node, at: path, "expected \(expected), found \(node.value.typeDescription)", hint: "HAR 1.2 writes \(expected) here")
    }

    private func issue(_ node: JSONNode?, at path: String, _ message: String, hint: String? = nil) -> LoadIssue {
        LoadIssue(
            location: ScenarioLocation(file: file, line: node?.line ?? 1, column: node?.column ?? 1, path: path), message: message,
            hint: hint)
    }

    private func nonNegative(_ number: Double?) -> Double {
        guard let number, number.isFinite, number > 0 else { return 0 }
        // A day of milliseconds at most: a broken timing must not become years of virtual time.
        return min(number, 86_400_000)
    }

    private func formEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// ISO 8601 dates as exporters write them: with or without fractional seconds.
private struct DateReader {
    private let withFraction: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    private let plain = ISO8601DateFormatter()

    func date(from text: String) -> Date? {
        if let date = withFraction.date(from: text) ?? plain.date(from: text) { return date }
        // Some formatters take at most three fraction digits; mitmproxy writes six.
        guard let dot = text.firstIndex(of: "."), text.count < 64 else { return nil }
        let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard digits.count > 3 else { return nil }
        let trimmed = String(text[...dot]) + digits.prefix(3) + text[digits.endIndex...]
        return withFraction.date(from: trimmed)
    }
}
