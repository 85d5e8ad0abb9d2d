import Foundation

/// Paths in the repository, found from this source file's location.
enum RepositoryPaths {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The repository's `Scenarios/` folder.
    static let scenarios = root.appendingPathComponent("Scenarios")

    /// Every scenario file in `Scenarios/` (not the schemas, not the invariant file).
    static var scenarioFiles: [URL] {
        guard let enumerator = FileManager.default.enumerator(at: scenarios, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }
            .filter {
                $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".schema.json") && $0.lastPathComponent != "invariants.json"
            }
            .sorted { $0.path < $1.path }
    }

    /// The JUnit schema reports must validate against, from the shared folder beside the repository.
    static var junitSchema: URL? {
        let candidates = [
            root.deletingLastPathComponent().appendingPathComponent("shared/reference/junit-10.xsd"),
            root.appendingPathComponent("shared/reference/junit-10.xsd"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }
}
