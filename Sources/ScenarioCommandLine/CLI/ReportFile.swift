import Foundation
import ScenarioKit

/// Reads and writes the files commands name on the command line.
enum ReportFile {
    /// Writes text to `path`, creating missing folders.
    static func write(_ text: String, to path: String) throws(CLIError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: path, reason: error.localizedDescription)
        }
    }

    /// Reads the bytes of `path`.
    static func read(_ path: String) throws(CLIError) -> Data {
        do {
            return Data(try FileBytes.read(path))
        } catch {
            throw .cannotRead(path: path, reason: error.description)
        }
    }
}
