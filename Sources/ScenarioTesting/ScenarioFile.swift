#if canImport(Testing)
    import Foundation
    import ScenarioEngine
    import Testing

    /// One scenario file of a folder, as the argument of a parameterized test: its id is what the
    /// test navigator and reports show.
    ///
    /// ```swift
    /// import ScenarioTesting
    /// import Testing
    ///
    /// @Test(arguments: ScenarioFile.all(in: "Scenarios", relativeTo: #filePath))
    /// func scenario(_ file: ScenarioFile) async {
    ///     await file.check(with: MyDriver())
    /// }
    /// ```
    public struct ScenarioFile: Sendable, Hashable, CustomTestStringConvertible {
        /// The scenario's id: its path below the folder, without `.json`.
        public let id: String
        /// The file's path.
        public let path: String
        /// Why this case stands for no file at all (a folder that does not exist, cannot be read
        /// or holds no scenario): what the case fails with.
        let problem: String?

        /// Creates a case for one file.
        public init(id: String, path: String) {
            self.init(id: id, path: path, problem: nil)
        }

        init(id: String, path: String, problem: String?) {
            self.id = id
            self.path = path
            self.problem = problem
        }

        /// Shown as the case's name.
        public var testDescription: String { id }

        /// Every scenario file under `folder` (recursively), in path order. A relative `folder` is
        /// taken from the package root found above `relativeTo` (pass `#filePath`), so the cases are
        /// the same whatever directory the tests run from. A folder that does not exist, cannot be
        /// read or holds no scenario gives one case named after it (`no such folder: Scenarioz`),
        /// which fails with that reason: never an empty, silently green list.
        public static func all(in folder: String, relativeTo filePath: String = #filePath) -> [ScenarioFile] {
            let root = resolvedFolder(folder, above: filePath)
            guard FileManager.default.fileExists(atPath: root) else {
                return [ScenarioFile(id: "no such folder: \(folder)", path: root, problem: "no such folder: \(root)")]
            }
            do {
                let found = try ScenarioDiscovery.find([root])
                guard !found.isEmpty else {
                    return [ScenarioFile(id: "no scenario files in \(folder)", path: root, problem: "no scenario files in \(root)")]
                }
                return found.map { ScenarioFile(id: $0.id, path: $0.path) }
            } catch {
                return [ScenarioFile(id: "cannot read \(folder)", path: root, problem: error.description)]
            }
        }

        /// `folder` as given when absolute, else under the package root above `filePath`.
        static func resolvedFolder(_ folder: String, above filePath: String) -> String {
            folder.hasPrefix("/") ? folder : packageRoot(above: filePath) + "/" + folder
        }

        /// The nearest folder above `filePath` that holds a `Package.swift`.
        static func packageRoot(above filePath: String) -> String {
            var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            while url.path != "/" {
                if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
                url.deleteLastPathComponent()
            }
            return FileManager.default.currentDirectoryPath
        }
    }
#endif
