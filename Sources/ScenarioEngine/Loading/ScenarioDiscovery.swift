import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A scenario file found on disk, with the id it is known by.
package struct DiscoveredScenario: Sendable, Hashable {
    /// The file's path.
    package var path: String
    /// The id: the path below the searched folder without `.json`, `/`-separated.
    package var id: String

    /// Creates a discovered scenario.
    package init(path: String, id: String) {
        self.path = path
        self.id = id
    }
}

/// Finds scenario files in files and folders given on the command line.
package enum ScenarioDiscovery {
    /// Why discovery failed.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The path that could not be used.
        package var path: String
        /// What is wrong with it.
        package var description: String
    }

    /// The scenarios at `paths`: a file is taken as is (its id is its name without `.json`); a
    /// folder is searched recursively for `*.json` files other than `*.schema.json` and invariant
    /// files (`invariants.json`), sorted by path,
    /// following symbolic links.
    /// - Throws: ``Failure`` naming every path that could not be used: one that does not exist, a
    ///   folder that cannot be read, a link that leads nowhere or back into itself, a scenario path
    ///   that is a FIFO, a device or a socket. Nothing is skipped in silence.
    package static func find(_ paths: [String]) throws(Failure) -> [DiscoveredScenario] {
        var found: [DiscoveredScenario] = []
        var problems: [Failure] = []
        for path in paths {
            switch kind(of: path) {
            case .missing:
                problems.append(Failure(path: path, description: "no such file or folder: \(path)"))
            case .danglingLink(let target):
                problems.append(Failure(path: path, description: "\(path) is a link to \(target), which does not exist"))
            case .special(let what):
                problems.append(Failure(path: path, description: "\(path) is \(what), not a scenario file"))
            case .file:
                found.append(DiscoveredScenario(path: path, id: idForFile((path as NSString).lastPathComponent)))
            case .folder:
                var inFolder: [DiscoveredScenario] = []
                walk(path, relative: "", visited: [], into: &inFolder, problems: &problems)
                found.append(contentsOf: inFolder.sorted { $0.path < $1.path })
            }
        }
        if let first = problems.first {
            throw problems.count == 1
                ? first : Failure(path: first.path, description: problems.map(\.description).joined(separator: "\n"))
        }
        return found
    }

    private enum Kind {
        case missing, file, folder
        case danglingLink(String)
        case special(String)
    }

    /// What is at `path`, following links.
    private static func kind(of path: String) -> Kind {
        var link = stat()
        guard lstat(path, &link) == 0 else { return .missing }
        var target = stat()
        guard stat(path, &target) == 0 else {
            let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            // ELOOP: a chain of links that never ends.
            return errno == ELOOP ? .special("a loop of symbolic links") : .danglingLink(destination)
        }
        switch target.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        case S_IFIFO: return .special("a FIFO")
        case S_IFCHR, S_IFBLK: return .special("a device")
        case S_IFSOCK: return .special("a socket")
        default: return .special("not a regular file")
        }
    }

    /// The folder's scenario files, recursively; `visited` holds the folders on the way down
    /// (device and inode), so a link back up is reported instead of followed forever.
    private static func walk(
        _ folder: String, relative: String, visited: Set<[UInt64]>, into found: inout [DiscoveredScenario], problems: inout [Failure]
    ) {
        var info = stat()
        guard stat(folder, &info) == 0 else { return }
        let identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
        guard !visited.contains(identity) else {
            problems.append(Failure(path: folder, description: "\(folder) links back into a folder above it; remove the link"))
            return
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            let reason = access(folder, R_OK | X_OK) == 0 ? "it cannot be listed" : "permission denied"
            problems.append(Failure(path: folder, description: "cannot read the folder \(folder): \(reason)"))
            return
        }
        for name in names {
            let path = (folder as NSString).appendingPathComponent(name)
            let id = relative.isEmpty ? name : relative + "/" + name
            switch kind(of: path) {
            case .folder:
                walk(path, relative: id, visited: visited.union([identity]), into: &found, problems: &problems)
            case .file where name.hasSuffix(".json") && !name.hasSuffix(".schema.json") && name != InvariantFiles.fileName:
                found.append(DiscoveredScenario(path: path, id: idForFile(id)))
            case .danglingLink(let target):
                problems.append(Failure(path: path, description: "\(path) is a link to \(target), which does not exist"))
            case .special(let what) where name.hasSuffix(".json") || what.contains("loop"):
                problems.append(Failure(path: path, description: "\(path) is \(what), not a scenario file"))
            default:
                continue
            }
        }
    }

    private static func idForFile(_ name: String) -> String {
        name.hasSuffix(".json") ? String(name.dropLast(".json".count)) : name
    }
}
