/// One problem found in a scenario file: where it is, what is wrong, and what to do about it.
public struct LoadIssue: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, line, column and JSON path of the offending key or value.
    public var location: ScenarioLocation
    /// What is wrong, phrased so the reader knows what to write instead.
    public var message: String
    /// An optional follow-up, such as `did you mean 'times'?`.
    package var hint: String?

    /// Creates an issue.
    package init(location: ScenarioLocation, message: String, hint: String? = nil) {
        self.location = location
        self.message = message
        self.hint = hint
    }

    /// `file:line:column: error: MESSAGE (at $.json.path) — hint`, the form editors and CI understand.
    public var description: String {
        var text = "\(location): error: \(message)"
        if !location.path.isEmpty { text += " (at \(Self.shortened(location.path)))" }
        if let hint, !hint.isEmpty { text += " — \(hint)" }
        return text
    }

    /// A path 500 levels deep would fill the screen: its ends, cut between components, say where.
    private static func shortened(_ path: String) -> String {
        guard path.count > 200 else { return path }
        let isBoundary = { (character: Character) in character == "[" || character == "." }
        let head = path.prefix(100)
        let tail = path.suffix(80)
        return head[..<(head.lastIndex(where: isBoundary) ?? head.endIndex)] + "…"
            + tail[(tail.firstIndex(where: isBoundary) ?? tail.startIndex)...]
    }
}

/// A scenario file that could not be loaded, with every issue found in it.
public struct LoadFailure: Error, Sendable, Codable, CustomStringConvertible {
    /// The file as given to the loader.
    package var file: String
    /// Every issue, in document order.
    public var issues: [LoadIssue]

    /// Creates a failure.
    package init(file: String, issues: [LoadIssue]) {
        self.file = file
        self.issues = issues
    }

    /// All issues, one per line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
