import Foundation
import ScenarioEngine

/// Reads and writes the files commands name on the command line.
enum ReportFile {
    /// Writes text to `path`, creating missing folders (see ``ReportOutput``).
    static func write(_ text: String, to path: String) throws(CLIError) {
        do {
            let output = try ReportOutput(path: path)
            try output.write(text)
            try output.commit()
        } catch {
            throw .cannotWrite(path: path, reason: (error as? ReportWriteError)?.reason ?? error.localizedDescription)
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
