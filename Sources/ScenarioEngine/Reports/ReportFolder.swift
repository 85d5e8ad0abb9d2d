import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A folder of reports that many test cases write into together: each case records its result,
/// and the folder's `junit.xml`, `results.json` and `report.html` are rewritten from every result
/// it holds, in scenario id order: the same files `scenario run` writes, one test case per
/// scenario.
///
/// Cases may record at once from several tasks or several processes (Xcode's parallel test
/// clones): each result is set aside in a file of its own and the reports are rewritten under a
/// file lock, each written whole before it takes its name. A rewrite reads every result, so in a
/// large run a process rewrites after a number of records that grows with the folder (a
/// sixteenth of the results its last rewrite held), which keeps a whole run's work linear; it always rewrites when it exits
/// normally, and on ``flush()``. The folder holds the results of the processes still running
/// and of the last one to finish: when a process first records, it drops what processes no
/// longer running left behind, so a new test run starts a new report.
package struct ReportFolder: Sendable {
    /// The folder's path.
    package let path: String

    /// The JUnit report's file name.
    package static let junitName = "junit.xml"
    /// The JSON report's file name.
    package static let jsonName = "results.json"
    /// The HTML page's file name.
    package static let htmlName = "report.html"

    /// Why a result could not be recorded.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the file.
        package var description: String
    }

    /// A folder at `path` (created when the first result is recorded).
    package init(path: String) {
        self.path = path
    }

    /// Records one scenario's result and rewrites the reports (in a large folder, see above).
    /// `label` tells apart runs of the same scenario by different tests (such as one per route);
    /// when the folder holds more than one label, each test case's name carries its own.
    package func record(_ result: ScenarioResult, label: String? = nil) throws(Failure) {
        let parts = URL(fileURLWithPath: path).appendingPathComponent(Self.partsName)
        do {
            try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create \(parts.path): \(error.localizedDescription)")
        }
        let part = Part(process: Int(getpid()), label: label, result: result)
        let encoded: Data
        do { encoded = try JSONEncoder().encode(part) } catch {
            throw Failure(description: "cannot encode the result of \(result.id): \(error)")
        }
        try Self.exclusively(in: path) { () throws(Failure) in
            let file = parts.appendingPathComponent(Self.partName(id: result.id, label: label))
            do { try encoded.write(to: file, options: .atomic) } catch {
                throw Failure(description: "cannot write \(file.path): \(error.localizedDescription)")
            }
            let first = Self.firstRecord(in: parts.path)
            var backlog = Self.backlogs[path] ?? Backlog()
            backlog.unwritten += 1
            guard first || backlog.unwritten >= backlog.resultsWritten / 16 else {
                Self.backlogs[path] = backlog
                return
            }
            try rewrite(parts, droppingEnded: first)
        }
    }

    /// Rewrites the reports now if results recorded by this process are not in them yet.
    package func flush() throws(Failure) {
        try Self.exclusively(in: path) { () throws(Failure) in
            guard Self.backlogs[path]?.unwritten ?? 0 > 0 else { return }
            try rewrite(URL(fileURLWithPath: path).appendingPathComponent(Self.partsName), droppingEnded: false)
        }
    }

    /// Writes the three reports from every result the folder holds (under the lock), streamed
    /// one result at a time: a rewrite holds no more of a large folder than of a small one. The
    /// first rewrite of a process drops what ended processes left (this process's own parts stay).
    private func rewrite(_ parts: URL, droppingEnded: Bool) throws(Failure) {
        let found = Self.parts(in: parts, droppingEnded: droppingEnded)
        let folder = URL(fileURLWithPath: path)
        let streams: [any StreamedReport] = [
            JUnitReport.Stream(path: folder.appendingPathComponent(Self.junitName).path),
            JSONReport.Stream(path: folder.appendingPathComponent(Self.jsonName).path),
            HTMLReport.Stream(path: folder.appendingPathComponent(Self.htmlName).path),
        ]
        // Cases may run in parallel: the run's time is the work done, as in a suite's JUnit time.
        var tally = RunTally()
        for result in found.lazy.compactMap(Self.result(of:)) {
            for stream in streams { stream.add(result, at: tally.total) }
            tally.add(result.status)
            tally.wallTime += result.wallTime
        }
        Self.backlogs[path] = Backlog(resultsWritten: tally.total)
        for stream in streams {
            do { try stream.finish(tally) } catch { throw Failure(description: "\(error)") }
        }
    }

    /// Every result the folder holds, in scenario id order (then label order), each named after
    /// its label when more than one label is there.
    package func results() -> [ScenarioResult] {
        Self.parts(in: URL(fileURLWithPath: path).appendingPathComponent(Self.partsName)).compactMap(Self.result(of:))
    }

    // MARK: - Parts

    /// One recorded result, as set aside in the folder.
    private struct Part: Codable {
        /// The process that recorded it: parts of ended processes belong to an earlier run.
        var process: Int
        var label: String?
        var result: ScenarioResult
    }

    private static let partsName = ".results"

    /// What ordering and naming a part takes, read without the rest of its result.
    private struct PartKey: Decodable {
        struct ResultID: Decodable { var id: String }
        var process: Int
        var label: String?
        var result: ResultID
    }

    /// A part to read: its file, and the label its result is named after (when the folder holds
    /// more than one label).
    private struct FoundPart {
        var file: URL
        var nameLabel: String?
    }

    /// The parts in `parts`, in scenario id order (then label order); with `droppingEnded`, the
    /// parts of processes no longer running (and those that do not decode) are deleted instead.
    private static func parts(in parts: URL, droppingEnded: Bool = false) -> [FoundPart] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parts.path)) ?? []
        let decoder = JSONDecoder()
        let found = names.filter { $0.hasSuffix(".json") }.compactMap { name -> (key: PartKey, file: URL)? in
            let file = parts.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file), let key = try? decoder.decode(PartKey.self, from: data) else {
                if droppingEnded { try? FileManager.default.removeItem(at: file) }
                return nil
            }
            guard !droppingEnded || isRunning(key.process) else {
                try? FileManager.default.removeItem(at: file)
                return nil
            }
            return (key, file)
        }
        .sorted { ($0.key.result.id, $0.key.label ?? "") < ($1.key.result.id, $1.key.label ?? "") }
        let labelled = Set(found.map { $0.key.label ?? "" }).count > 1
        return found.map { FoundPart(file: $0.file, nameLabel: labelled ? $0.key.label : nil) }
    }

    /// The result a part holds, named after its label when it has one to show; `nil` when the part
    /// no longer reads (another process dropped it meanwhile).
    private static func result(of part: FoundPart) -> ScenarioResult? {
        guard let data = try? Data(contentsOf: part.file), var result = try? JSONDecoder().decode(Part.self, from: data).result else {
            return nil
        }
        if let label = part.nameLabel { result.name += " (\(label))" }
        return result
    }

    /// A file name for a result that stays the same for the same scenario and label, whatever
    /// characters they hold.
    private static func partName(id: String, label: String?) -> String {
        let key = id + "\u{0}" + (label ?? "")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let readable = String(id.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.prefix(80))
        return readable + "-" + String(hash, radix: 16) + ".json"
    }

    private static func isRunning(_ process: Int) -> Bool {
        if process == Int(getpid()) { return true }
        // A process we may not signal is still running.
        return kill(pid_t(process), 0) == 0 || errno == EPERM
    }

    // MARK: - Locking

    /// Folders this process has recorded into already.
    nonisolated(unsafe) private static var recorded: Set<String> = []
    /// What a folder's reports lack of this process's records, and how many results they hold.
    private struct Backlog {
        var unwritten = 0
        var resultsWritten = 0
    }

    /// Each folder's backlog, by path.
    nonisolated(unsafe) private static var backlogs: [String: Backlog] = [:]
    private static let processLock = NSLock()

    /// Whether this is the process's first record into the folder (call under the lock). The
    /// first record anywhere also sets up the rewrite at exit.
    private static func firstRecord(in parts: String) -> Bool {
        if recorded.isEmpty { atexit { ReportFolder.flushAll() } }
        return recorded.insert(parts).inserted
    }

    /// Writes every folder's pending results, as the process exits.
    static func flushAll() {
        let folders = processLock.withLock { backlogs.filter { $0.value.unwritten > 0 }.map(\.key) }
        for folder in folders {
            do { try ReportFolder(path: folder).flush() } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            }
        }
    }

    /// Runs `body` while holding the folder's lock, against other tasks of this process and
    /// against other processes.
    private static func exclusively(in folder: String, _ body: () throws(Failure) -> Void) throws(Failure) {
        processLock.lock()
        defer { processLock.unlock() }
        let lockPath = URL(fileURLWithPath: folder).appendingPathComponent(".lock").path
        let descriptor = open(lockPath, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(description: "cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        try body()
    }
}
