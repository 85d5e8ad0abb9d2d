/// Where something stands in a scenario file: file, 1-based line and column, and JSON path.
public struct ScenarioLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file path as given to the loader.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in characters.
    public var column: Int
    /// The JSON path, such as `$.exchanges[0].response.status`.
    public var path: String

    /// Creates a location.
    public init(file: String, line: Int, column: Int, path: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
    }

    /// `file:line:column`, the form editors and CI annotations understand.
    public var description: String { "\(file):\(line):\(column)" }
}
