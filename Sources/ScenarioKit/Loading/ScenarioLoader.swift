import Foundation

/// Reads scenario files strictly: every unknown key, wrong type, bad reference or unknown
/// driver action is an issue with its `file:line:column` and JSON path, and all of them are
/// reported together.
public struct ScenarioLoader: Sendable {
    /// The actions steps may name, with their arguments.
    public let actions: [ActionSpec]
    /// The keys `given` may hold besides `clock`.
    public let givenKeys: [GivenSpec]

    /// Creates a loader that checks steps against `actions` and `given` against `givenKeys`
    /// (usually a driver's ``ScenarioDriver/actions`` and ``ScenarioDriver/givenKeys``).
    public init(actions: [ActionSpec], givenKeys: [GivenSpec]) {
        self.actions = actions
        self.givenKeys = givenKeys
    }

    /// Loads the scenario file at `path`, giving it `id`.
    public func load(contentsOf path: String, id: String) -> Result<Scenario, LoadFailure> {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let location = ScenarioLocation(file: path, line: 1, column: 1, path: JSONPath.root)
            return .failure(
                LoadFailure(
                    file: path,
                    issues: [LoadIssue(location: location, message: "cannot read the file: \(error.localizedDescription)")]))
        }
        return load(data: data, file: path, id: id)
    }

    /// Loads a scenario from `data`, naming `file` in issues. Response `file` bodies are read
    /// relative to `file`'s folder.
    public func load(data: Data, file: String, id: String) -> Result<Scenario, LoadFailure> {
        let root: JSONNode
        do {
            root = try JSONTextParser(data: data, file: file).parseDocument()
        } catch {
            return .failure(LoadFailure(file: file, issues: [error]))
        }
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var decoder = ScenarioDecoder(file: file, directory: directory, actions: actions, givenKeys: givenKeys)
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
            secrets: SecretRedactor.secrets(in: root.value, extraKeys: named), policy: RedactionPolicy(extraKeys: named))
        let masked = ordered.map { issue in
            LoadIssue(
                location: issue.location, message: TerminalSafe.escape(redactor.redact(issue.message)),
                hint: issue.hint.map { TerminalSafe.escape(redactor.redact($0)) })
        }
        return .failure(LoadFailure(file: file, issues: masked))
    }
}
