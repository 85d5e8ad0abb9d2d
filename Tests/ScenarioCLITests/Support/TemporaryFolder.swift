import Foundation

/// A fresh folder under the system temporary folder, removed when the value goes away.
final class TemporaryFolder {
    /// The folder.
    let url: URL

    /// Creates the folder.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of something inside the folder.
    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    /// Writes text at a relative path, creating folders; returns the file's path.
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Reads a text file inside the folder.
    func read(_ relative: String) throws -> String {
        String(decoding: try Data(contentsOf: url.appendingPathComponent(relative)), as: UTF8.self)
    }

    /// Whether something exists at the relative path.
    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relative))
    }
}

/// Small scenario files for tests.
enum ScenarioText {
    /// A scenario with no steps: it loads with any driver, and checks that nothing is sent
    /// unless `extra` expects something else.
    static func empty(name: String, tags: [String] = [], extra: String = "") -> String {
        let tagList = tags.map(quoted).joined(separator: ", ")
        let extra = extra.contains("\"expect\"") ? extra : [extra, nothingSent].filter { !$0.isEmpty }.joined(separator: ",\n  ")
        return """
            {
              "name": \(quoted(name)),
              "description": "A test scenario.",
              "tags": [\(tagList)],
              "steps": [],
              \(extra)
            }

            """
    }

    /// The expectation of a scenario that sends nothing (one with none is refused: it checks nothing).
    static let nothingSent = #""expect": { "requests": { "total": 0 } }"#

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + escaped + "\""
    }

    /// A scenario that cannot pass: it expects requests that nothing sends.
    static func failing(name: String) -> String {
        empty(name: name, extra: "\"expect\": { \"requests\": { \"total\": 3 } }")
    }

    /// A file with two problems the loader must both report.
    static let broken = """
        {
          "name": "Broken",
          "descriptio": "misspelled",
          "steps": [],
          "tims": 3
        }

        """
}
