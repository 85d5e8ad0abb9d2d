import Foundation

/// Finds and reads the invariant files that govern a scenario: `invariants.json` in the
/// scenario's folder and in every folder above it, up to the folder the scenario was found in
/// (the one given on the command line, or to ``ScenarioFile/all(in:)``) or up to the working
/// directory when the scenario is below it, whichever is higher. So a file or a subfolder run on
/// its own is governed as when its whole folder runs, and an explored schedule replays there.
package enum InvariantFiles {
    /// The name of an invariant file.
    package static let fileName = "invariants.json"

    /// The invariant files governing the scenario at `path` known by `id`, outermost first. The
    /// id is the path below the searched folder, so it says how far up to look at least.
    package static func governing(path: String, id: String) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let withoutExtension = path.hasSuffix(".json") ? String(path.dropLast(".json".count)) : path
        var levels = levelsBelowWorkingDirectory(path)
        if withoutExtension == id || withoutExtension.hasSuffix("/" + id) {
            levels = max(levels, id.split(separator: "/").count - 1)
        }
        var folders = [folder]
        var current = folder
        for _ in 0..<levels {
            current = (current as NSString).deletingLastPathComponent
            folders.append(current)
        }
        return folders.reversed().map { ($0.isEmpty ? "." : $0) + "/" + fileName }.map {
            $0.hasPrefix("./") && !path.hasPrefix("./") ? String($0.dropFirst(2)) : $0
        }
        .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// How many folders lie between the file's own folder and the working directory, when the
    /// file is below it (0 otherwise, and when the working directory is the file system's root,
    /// as for a process a launcher starts, which would reach every folder above).
    private static func levelsBelowWorkingDirectory(_ path: String) -> Int {
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let here = workingDirectory.resolved(FileManager.default.currentDirectoryPath)
        guard here != "/", file.hasPrefix(here + "/") else { return 0 }
        return file.dropFirst(here.count + 1).split(separator: "/").count - 1
    }

    /// Reads one invariant file strictly: every issue with its place, JSON path and hint. A file
    /// whose bytes are those of the last read is not parsed again: every scenario of a folder
    /// reads the same few files.
    package static func load(contentsOf path: String) -> Result<[Invariant], LoadFailure> {
        do {
            let data = Data(try FileBytes.read(path))
            if let known = recentlyRead.result(for: path, data: data) { return known }
            let result = load(data: data, file: path)
            recentlyRead.remember(result, for: path, data: data)
            return result
        } catch {
            let location = ScenarioLocation(file: path, line: 1, column: 1, path: JSONPath.root)
            return .failure(
                LoadFailure(file: path, issues: [LoadIssue(location: location, message: "cannot read the invariant file: \(error)")]))
        }
    }

    /// Reads invariants from `data`, naming `file` in issues.
    package static func load(data: Data, file: String) -> Result<[Invariant], LoadFailure> {
        let root: JSONNode
        do {
            root = try JSONTextParser(data: data, file: file).parseDocument()
        } catch {
            return .failure(LoadFailure(file: file, issues: [error]))
        }
        var decoder = ScenarioDecoder(file: file, directory: "", actions: [], givenKeys: [])
        let invariants = decoder.decodeInvariantFile(root)
        guard decoder.issues.isEmpty else {
            let ordered = decoder.issues.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
            return .failure(LoadFailure(file: file, issues: ordered.map { TerminalSafe.escaped($0) }))
        }
        return .success(invariants)
    }

    /// The invariants of the files governing a scenario, an inner file's invariant replacing an
    /// outer one of the same id; or every issue found in them.
    package static func inherited(path: String, id: String) -> (invariants: [Invariant], issues: [LoadIssue]) {
        var invariants: [Invariant] = []
        var issues: [LoadIssue] = []
        for file in governing(path: path, id: id) {
            switch load(contentsOf: file) {
            case .success(let found):
                for invariant in found {
                    if let index = invariants.firstIndex(where: { $0.id == invariant.id }) {
                        invariants[index] = invariant
                    } else {
                        invariants.append(invariant)
                    }
                }
            case .failure(let failure):
                issues += failure.issues
            }
        }
        return (invariants, issues)
    }
}

/// The last reads of a few invariant files, by path, with the bytes they were read from; bounded,
/// so a process running scenarios of many folders keeps no more than this.
private final class RecentInvariantFiles: @unchecked Sendable {
    private struct Entry {
        let data: Data
        let result: Result<[Invariant], LoadFailure>
    }
    private static let limit = 32
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    func result(for path: String, data: Data) -> Result<[Invariant], LoadFailure>? {
        lock.withLock { entries[path].flatMap { $0.data == data ? $0.result : nil } }
    }

    func remember(_ result: Result<[Invariant], LoadFailure>, for path: String, data: Data) {
        lock.withLock {
            if entries[path] == nil && entries.count >= Self.limit { entries.removeAll() }
            entries[path] = Entry(data: data, result: result)
        }
    }
}

/// The working directory with its links resolved, worked out again only when it changes.
private final class ResolvedDirectory: @unchecked Sendable {
    private let lock = NSLock()
    private var last: (path: String, resolved: String)?

    func resolved(_ path: String) -> String {
        lock.withLock {
            if let last, last.path == path { return last.resolved }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            last = (path, resolved)
            return resolved
        }
    }
}

extension InvariantFiles {
    fileprivate static let recentlyRead = RecentInvariantFiles()
    fileprivate static let workingDirectory = ResolvedDirectory()
}

extension TerminalSafe {
    static func escaped(_ issue: LoadIssue) -> LoadIssue {
        LoadIssue(location: issue.location, message: escape(issue.message), hint: issue.hint.map { escape($0) })
    }
}
