import Foundation
import ScenarioKit

/// `--contracts`: `scenario verify` of every documented answer of a large public document, in a
/// process of its own (process start, document, scenarios, checks): by default the Asana
/// document (3 MB) beside the repository in `../shared/reference/openapi-documents/`, or each
/// `--contracts-verify PATH`. One scenario per operation, an exchange per documented status with
/// an empty JSON object as its body (so the findings are many and every answer is checked).
func documentVerification() {
    let arguments = CommandLine.arguments
    var documents = arguments.indices.dropLast().filter { arguments[$0] == "--contracts-verify" }.map { arguments[$0 + 1] }
    let asana = URL(fileURLWithPath: repository).deletingLastPathComponent().appendingPathComponent(
        "shared/reference/openapi-documents/asana.yaml"
    ).path
    if documents.isEmpty, FileManager.default.fileExists(atPath: asana) { documents = [asana] }
    guard !documents.isEmpty else {
        print("\n(no public document for the verify figure: pass --contracts-verify PATH)")
        return
    }
    guard FileManager.default.isExecutableFile(atPath: scenarioProgram) else {
        print("\n(no \(scenarioProgram): build it with `swift build -c release` for the verify figure)")
        return
    }
    var table = Table(title: "scenario verify of every documented answer of a public document (a process of its own, --answers-only)")
    table.add("document", "MB", "scenarios", "exchanges", "wall", "peak MB")
    for path in documents {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            let document = try? OpenAPIDocument.load(path: path)
        else {
            table.add(URL(fileURLWithPath: path).lastPathComponent, "-", "-", "-", "does not load", "")
            continue
        }
        var byOperation: [String: [JSONValue]] = [:]
        var order: [String] = []
        for operation in document.operations {
            let concrete = operation.template.replacingOccurrences(of: #"\{[^}]+\}"#, with: "1", options: .regularExpression)
            let statuses = operation.responses.map { document.members($0).map(\.key) }?.filter { Int($0) != nil } ?? []
            for status in statuses {
                let key = operation.name
                if byOperation[key] == nil { order.append(key) }
                byOperation[key, default: []].append(
                    [
                        ScenarioKey.id: .string("e\(byOperation[key]?.count ?? 0)"),
                        ScenarioKey.request: [ScenarioKey.method: .string(operation.method), ScenarioKey.path: .string(concrete)],
                        ScenarioKey.response: [ScenarioKey.status: .number(Double(status) ?? 200), ScenarioKey.json: [:]],
                    ])
            }
        }
        for (index, key) in order.enumerated() {
            let scenario: JSONValue = [
                ScenarioKey.name: .string(key), ScenarioKey.description: "every documented status",
                ScenarioKey.exchanges: .array(byOperation[key] ?? []), ScenarioKey.steps: [],
                ScenarioKey.relax: [ScenarioKey.unusedExchanges: true], ScenarioKey.expect: [ScenarioKey.requests: [ScenarioKey.total: 0]],
            ]
            try? Data(scenario.prettyText.utf8).write(to: folder.appendingPathComponent("op\(index).json"))
        }
        let exchanges = byOperation.values.reduce(0) { $0 + $1.count }
        let child = Measure.child(
            scenarioProgram, ["verify", folder.path, "--openapi", path, "--answers-only", "--allow-unchecked", "--quiet"], in: repository)
        let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576
        table.add(
            URL(fileURLWithPath: path).lastPathComponent, format(size), "\(order.count)", "\(exchanges)",
            "\(format(child.wall.seconds, 2)) s (exit \(child.status))", format(child.peakMegabytes))
    }
    table.print()
}
