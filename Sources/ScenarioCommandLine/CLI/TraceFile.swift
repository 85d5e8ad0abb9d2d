import Foundation
import ScenarioEngine
import ScenarioTraces

/// Reads and writes HAR traces named on the command line, with the reader's size bound
/// checked before a byte is loaded.
enum TraceFile {
    /// The capture in `path`.
    static func read(_ path: String) throws(CLIError) -> HARLog {
        // Bytes, not Data: the parser reads bytes, and the file is then held once.
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: HARReader.maximumBytes)
        } catch .tooLarge(let size, let limit) {
            throw .invalidTrace(
                "\(path):1:1: error: the file has \(size) bytes, more than the \(limit) a trace may have (at $) — export only the requests of the bug"
            )
        } catch {
            throw .cannotRead(path: path, reason: error.description)
        }
        do {
            return try HARReader(file: path).read(bytes: bytes)
        } catch {
            throw .invalidTrace(error.description)
        }
    }

    /// Writes `log` as HAR 1.2 to `path`, an entry at a time; the file takes its name only
    /// once it is whole.
    static func write(_ log: HARLog, to path: String) throws(CLIError) {
        do {
            let output = try ReportOutput(path: path)
            log.writeHAR(creatorVersion: ScenarioCLI.version, to: output.append)
            try output.commit()
        } catch {
            throw .cannotWrite(path: path, reason: (error as? ReportWriteError)?.reason ?? error.localizedDescription)
        }
    }
}
