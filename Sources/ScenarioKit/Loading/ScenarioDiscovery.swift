import Foundation

/// A scenario file found on disk, with the id it is known by.
public struct DiscoveredScenario: Sendable, Hashable {
    /// The file's path.
    public var path: String
    /// The id: the path below the searched folder without `.json`, `/`-separated.
    public var id: String

    /// Creates a discovered scenario.
    public init(path: String, id: String) {
        self.path = path
        self.id = id
    }
}

/// Finds scenario files in files and folders given on the command line.
public enum ScenarioDiscovery {
    /// Why discovery failed.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The path that could not be used.
        public var path: String
        /// What is wrong with it.
        public var description: String
    }

    /// The scenarios at `paths`: a file is taken as is (its id is its name without `.json`); a
    /// folder is searched recursively for `*.json` files other than `*.schema.json`, sorted by path.
    /// - Throws: ``Failure`` naming a path that does not exist or a folder that cannot be read.
    public static func find(_ paths: [String]) throws -> [DiscoveredScenario] {
        var found: [DiscoveredScenario] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure(path: path, description: "no such file or folder: \(path)")
            }
            guard isDirectory.boolValue else {
                found.append(DiscoveredScenario(path: path, id: idForFile((path as NSString).lastPathComponent)))
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else {
                throw Failure(path: path, description: "cannot read the folder \(path)")
            }
            var inFolder: [DiscoveredScenario] = []
            while let relative = enumerator.nextObject() as? String {
                guard relative.hasSuffix(".json"), !relative.hasSuffix(".schema.json") else { continue }
                let full = (path as NSString).appendingPathComponent(relative)
                var entryIsDirectory: ObjCBool = false
                guard manager.fileExists(atPath: full, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue else {
                    continue
                }
                let components = relative.split(separator: "/").map(String.init)
                inFolder.append(DiscoveredScenario(path: full, id: idForFile(components.joined(separator: "/"))))
            }
            found.append(contentsOf: inFolder.sorted { $0.path < $1.path })
        }
        return found
    }

    private static func idForFile(_ name: String) -> String {
        name.hasSuffix(".json") ? String(name.dropLast(".json".count)) : name
    }
}
