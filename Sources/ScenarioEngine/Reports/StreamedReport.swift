import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A report file written while a run goes on: each result is rendered as it arrives and set
/// aside on disk, and ``finish(_:)`` writes the file in input order. A run of any length then
/// holds a few fields per scenario rather than every transcript, and the file is byte for
/// byte what the report's `render` gives for the whole run.
package protocol StreamedReport: AnyObject {
    /// The file it writes.
    var path: String { get }
    /// Takes one result at its position in input order (positions run from 0 with no gaps,
    /// in any order); a failure to set it aside is kept for ``finish(_:)`` to throw.
    func add(_ result: ScenarioResult, at slot: Int)
    /// Writes the file whole, or throws the first failure met since the report was created.
    func finish(_ tally: RunTally) throws
}

/// Why a streamed report could not be written.
package struct ReportWriteError: Error, CustomStringConvertible {
    /// The report's path.
    package var path: String
    /// What went wrong.
    package var reason: String

    package var description: String { "cannot write \(path): \(reason)" }
}

/// Rendered pieces of a report in a scratch file, written in the order results finish and
/// read back by position. The file has no name once open, so a run that is killed leaves
/// nothing behind.
final class ReportSpool {
    private let handle: FileHandle
    private var end: UInt64 = 0
    private var pieces: [Int: (offset: UInt64, length: Int)] = [:]

    init(in folder: URL = FileManager.default.temporaryDirectory) throws {
        let url = folder.appendingPathComponent("scenario-report-\(UUID().uuidString).spool")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ReportWriteError(path: url.path, reason: "cannot create a scratch file for the report")
        }
        handle = try FileHandle(forUpdating: url)
        unlink(url.path)
    }

    deinit {
        try? handle.close()
    }

    /// Positions set aside so far, in input order.
    var slots: [Int] { pieces.keys.sorted() }

    /// Sets a piece aside for position `slot`.
    func append(_ text: String, at slot: Int) throws {
        let data = Data(text.utf8)
        try handle.write(contentsOf: data)
        pieces[slot] = (end, data.count)
        end += UInt64(data.count)
    }

    /// The piece set aside for `slot`.
    func piece(at slot: Int) throws -> Data {
        guard let (offset, length) = pieces[slot] else { return Data() }
        try handle.seek(toOffset: offset)
        return try handle.read(upToCount: length) ?? Data()
    }
}

/// A report file written front to back in buffered chunks, which takes its name only once it
/// is whole, so a failed run never leaves half a report where the last whole one stood. A
/// destination that is a device or a FIFO (`/dev/stdout`) gets the whole text copied into it
/// instead, and a link to a file keeps pointing at the new one.
package final class ReportOutput {
    private let destination: URL
    /// Whether the destination is a device or a FIFO, which a rename would replace.
    private let isSpecial: Bool
    private let partial: URL
    private let handle: FileHandle
    private var buffer = Data()
    private var closed = false
    /// The first failure of ``append(_:)``, thrown by ``close()``.
    private var appendFailure: (any Error)?

    /// Creates the file's folders and a partial file beside it.
    package init(path: String) throws {
        var target = URL(fileURLWithPath: path)
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            guard info.st_mode & S_IFMT != S_IFDIR else {
                throw ReportWriteError(path: path, reason: "it is a folder; name a file")
            }
            isSpecial = true
        } else {
            isSpecial = false
            if let resolved = realpath(path, nil) {
                target = URL(fileURLWithPath: String(cString: resolved))
                free(resolved)
            }
        }
        destination = target
        let folder = isSpecial ? FileManager.default.temporaryDirectory : target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        partial = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw ReportWriteError(path: path, reason: "cannot create a file in \(folder.path)")
        }
        handle = try FileHandle(forWritingTo: partial)
    }

    deinit {
        if !closed { try? handle.close() }
        try? FileManager.default.removeItem(at: partial)
    }

    package func write(_ text: String) throws { try write(Data(text.utf8)) }

    package func write(_ data: Data) throws {
        buffer.append(data)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes `bytes` for a writer that cannot throw, such as ``PrettyObjectWriter``: after a
    /// failure the rest is dropped, and the first failure is thrown by ``close()`` or ``commit()``.
    package func append(_ bytes: [UInt8]) {
        guard appendFailure == nil else { return }
        buffer.append(contentsOf: bytes)
        guard buffer.count >= 1 << 20 else { return }
        do { try flush() } catch { appendFailure = error }
    }

    /// Writes what is left; the whole text is then in ``partialPath``, not yet in place.
    package func close() throws {
        if let appendFailure { throw appendFailure }
        guard !closed else { return }
        try flush()
        try handle.close()
        closed = true
    }

    /// Where the text is written until ``commit()``.
    package var partialPath: String { partial.path }

    /// Writes what is left and puts the file in place.
    package func commit() throws {
        try close()
        if isSpecial { return try copyIntoDestination() }
        // rename(2) replaces an earlier report in one step.
        guard rename(partial.path, destination.path) == 0 else {
            throw ReportWriteError(path: destination.path, reason: String(cString: strerror(errno)))
        }
    }

    private func copyIntoDestination() throws {
        do {
            let source = try FileHandle(forReadingFrom: partial)
            defer { try? source.close() }
            let sink = try FileHandle(forWritingTo: destination)
            defer { try? sink.close() }
            while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty {
                try sink.write(contentsOf: chunk)
            }
        } catch {
            throw ReportWriteError(path: destination.path, reason: "the write failed (\(error.localizedDescription))")
        }
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// What the streamed reports share: a spool, and the first failure to remember.
package class SpooledReport {
    /// The file it writes.
    package let path: String
    let spool: ReportSpool?
    private(set) var failure: (any Error)?

    init(path: String) {
        self.path = path
        do {
            spool = try ReportSpool()
        } catch {
            spool = nil
            failure = error
        }
    }

    /// Sets a piece aside unless something already failed.
    func setAside(at slot: Int, _ render: () -> String) {
        guard failure == nil, let spool else { return }
        do { try spool.append(render(), at: slot) } catch { failure = error }
    }

    /// Writes the file with `body`, or throws the first failure, naming the file either way.
    func write(_ body: (ReportSpool, ReportOutput) throws -> Void) throws {
        do {
            if let failure { throw failure }
            guard let spool else { throw ReportWriteError(path: path, reason: "no scratch file") }
            let output = try ReportOutput(path: path)
            try body(spool, output)
            try output.commit()
        } catch let error as ReportWriteError {
            throw error
        } catch {
            throw ReportWriteError(path: path, reason: error.localizedDescription)
        }
    }
}
