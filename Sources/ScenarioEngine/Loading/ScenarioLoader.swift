import Foundation

/// Reads scenario files strictly: every unknown key, wrong type, bad reference or unknown
/// driver action is an issue with its `file:line:column` and JSON path, and all of them are
/// reported together.
///
/// Exchanges and steps are decoded one at a time as the parser reads them, so a file is never
/// held as one JSON tree: a scenario of a hundred thousand exchanges loads in bounded memory
/// beside what it decodes to.
public struct ScenarioLoader: Sendable {
    /// The actions steps may name, with their arguments.
    package let actions: [ActionSpec]
    /// The keys `given` may hold besides `clock`.
    package let givenKeys: [GivenSpec]

    /// Creates a loader that checks steps against `actions` and `given` against `givenKeys`
    /// (usually a driver's ``ScenarioDriver/actions`` and ``ScenarioDriver/givenKeys``).
    public init(actions: [ActionSpec], givenKeys: [GivenSpec]) {
        self.actions = actions
        self.givenKeys = givenKeys
    }

    /// Loads the scenario file at `path`, giving it `id`.
    public func load(contentsOf path: String, id: String) -> Result<Scenario, LoadFailure> {
        // Bytes, not Data: the parser reads bytes, and the file is then held once.
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            let location = ScenarioLocation(file: path, line: 1, column: 1, path: JSONPath.root)
            return .failure(
                LoadFailure(
                    file: path,
                    issues: [LoadIssue(location: location, message: "cannot read the file: \(error)")]))
        }
        return bytes.withUnsafeBufferPointer { decode($0, file: path, id: id, keep: true, read: nil) }
    }

    /// Loads a scenario from `data`, naming `file` in issues. Response `file` bodies are read
    /// relative to `file`'s folder.
    public func load(data: Data, file: String, id: String) -> Result<Scenario, LoadFailure> {
        data.withUnsafeBytes { decode($0.bindMemory(to: UInt8.self), file: file, id: id, keep: true, read: nil) }
    }

    /// What loading `bytes` would report, without keeping the scenario: each exchange and step
    /// is decoded and dropped. `nil` when it loads.
    package func check(bytes: [UInt8], file: String, id: String) -> LoadFailure? {
        bytes.withUnsafeBufferPointer { check(buffer: $0, file: file, id: id) }
    }

    /// As ``check(bytes:file:id:)`` for a mapped file, whose pages are let go of as the parse
    /// passes them: checking a very large file then costs little beyond what it names.
    package func check(mapped: MappedFile, file: String, id: String) -> LoadFailure? {
        check(buffer: mapped.bytes, file: file, id: id, read: mapped.release(before:))
    }

    private func check(buffer: UnsafeBufferPointer<UInt8>, file: String, id: String, read: ((Int) -> Void)? = nil) -> LoadFailure? {
        guard case .failure(let failure) = decode(buffer, file: file, id: id, keep: false, read: read) else { return nil }
        return failure
    }

    private func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, id: String, keep: Bool, read: ((Int) -> Void)?
    ) -> Result<Scenario, LoadFailure> {
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let state = DecoderState(ScenarioDecoder(file: file, directory: directory, actions: actions, givenKeys: givenKeys))
        state.decoder.keepsElements = keep
        // Until the whole file is read, a reference may be to a later exchange or step.
        state.decoder.reading = true
        let root: JSONNode
        do {
            root = try JSONTextParser.parse(
                buffer: bytes, file: file, streaming: Self.streamedArrays,
                element: { array, node, index in
                    if array == 0 {
                        state.decoder.decodeExchange(node, index: index)
                    } else {
                        state.decoder.decodeStep(node, index: index)
                    }
                }, read: read)
        } catch {
            return .failure(LoadFailure(file: file, issues: [error]))
        }
        var decoder = state.decoder
        state.decoder = ScenarioDecoder(file: file, directory: directory, actions: [], givenKeys: [])
        let inherited = InvariantFiles.inherited(path: file, id: id)
        decoder.inheritedInvariants = inherited.invariants
        let scenario = decoder.decodeScenario(root, id: id)
        decoder.issues += inherited.issues
        if let scenario, decoder.issues.isEmpty {
            return .success(scenario)
        }
        // Document order; issues on the same spot keep the order they were found in.
        let ordered = decoder.issues.enumerated().sorted {
            ($0.element.location.line, $0.element.location.column, $0.offset)
                < ($1.element.location.line, $1.element.location.column, $1.offset)
        }.map(\.element)
        // Messages quote short values ("got 123456"); a mistyped password must not reach a report.
        let named = Set((root.value["secrets"]?.arrayValue ?? []).compactMap(\.stringValue).map(SecretRedactor.normalized))
        let redactor = SecretRedactor(
            secrets: Self.secrets(in: bytes, root: root, file: file, named: named), policy: RedactionPolicy(extraKeys: named))
        let masked = ordered.map { issue in
            LoadIssue(
                location: issue.location, message: TerminalSafe.escape(redactor.redact(issue.message)),
                hint: issue.hint.map { TerminalSafe.escape(redactor.redact($0)) })
        }
        return .failure(LoadFailure(file: file, issues: masked))
    }

    /// The top-level arrays whose elements are decoded as they are read.
    private static let streamedArrays = [[ScenarioKey.exchanges], [ScenarioKey.steps]]

    /// The secret-looking values of the whole document in document order, as if it were one
    /// tree: the streamed arrays are read once more, element by element.
    private static func secrets(in bytes: UnsafeBufferPointer<UInt8>, root: JSONNode, file: String, named: Set<String>) -> [String] {
        let policy = RedactionPolicy(extraKeys: named)
        let keys = streamedArrays.map { $0[0] }
        let perArray = FindingsBox(count: keys.count)
        _ = try? JSONTextParser.parse(
            buffer: bytes, file: file, streaming: streamedArrays,
            element: { array, node, _ in
                // As under its key: a secret-named array makes every string in it a secret.
                policy.collect(json: .object(JSONObject([(keys[array], .array([node.value]))])), into: &perArray.found[array])
            })
        var found = RedactionPolicy.Findings()
        for member in root.members ?? [] {
            if let array = keys.firstIndex(of: member.key), member.value.elements != nil {
                for finding in perArray.found[array].ordered { found.add(finding.value, finding.kind) }
            } else {
                policy.collect(json: .object(JSONObject([(member.key, member.value.value)])), into: &found)
            }
        }
        // A root that is no object holds its secrets in itself.
        if root.members == nil { policy.collect(json: root.value, into: &found) }
        return found.values
    }
}

/// The decoder, shared with the parser's element callback.
private final class DecoderState {
    var decoder: ScenarioDecoder
    init(_ decoder: ScenarioDecoder) { self.decoder = decoder }
}

/// Findings per streamed array, filled from the parser's element callback.
private final class FindingsBox {
    var found: [RedactionPolicy.Findings]
    init(count: Int) { found = Array(repeating: RedactionPolicy.Findings(), count: count) }
}
