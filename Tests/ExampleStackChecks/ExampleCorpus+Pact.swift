import Foundation
import ScenarioKit

extension ExampleCorpus {
    /// The stack's scenarios as a Pact v4 file, each run once (what `scenario export-pact`
    /// writes with this driver): the export, and whether a scenario failed or an answer was refused.
    package func pact(consumer: String) async throws -> (export: PactExport, incomplete: Bool) {
        var loaded: [(scenario: Scenario, root: JSONNode)] = []
        for file in scenarios {
            let scenario = try load(file.id)
            let data = try Data(contentsOf: URL(fileURLWithPath: file.path))
            loaded.append((scenario, try JSONTextParser(data: data, file: file.path).parseDocument()))
        }
        var export = PactExport(consumer: consumer, provider: "backend")
        let incomplete = await export.addRunning(loaded, driver: driver)
        return (export, incomplete)
    }

    /// Writes the stack's pact into the folder `SCENARIO_PACT_DIR` names, when it names one (the
    /// real-tool check, `scripts/contract-tools-check`, verifies it with `pact verifier`).
    package func writePactWhenAsked(consumer: String) async throws -> (interactions: Int, incomplete: Bool) {
        let (export, incomplete) = try await pact(consumer: consumer)
        if let folder = ProcessInfo.processInfo.environment["SCENARIO_PACT_DIR"], !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let text = export.document(keepSecrets: false, version: "examples").prettyText + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(export.fileName))
        }
        return (export.interactionCount, incomplete)
    }
}
