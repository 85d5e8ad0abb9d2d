import Foundation
import ScenarioKit
import SessionKitDriver

/// `--contracts`: reading and indexing API documents in YAML and in JSON (time, and the peak
/// memory the read adds over the document's size), whether both forms give the same value, and
/// verifying the corpus against Scenarios/openapi.yaml. `--contracts-document A.yaml=A.json` adds
/// a real document of one's own in both forms (one a package ships; never kept in the repository).
func contractFigures() {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-bench-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var pairs: [(label: String, yaml: String, json: String)] = []
    for megabytes in quick ? [1] : [1, 10] {
        let value = GeneratedDocument.value(bytes: megabytes << 20)
        let yaml = folder.appendingPathComponent("generated-\(megabytes).yaml").path
        let json = folder.appendingPathComponent("generated-\(megabytes).json").path
        guard FileManager.default.createFile(atPath: yaml, contents: Data(GeneratedDocument.yaml(value).utf8)),
            FileManager.default.createFile(atPath: json, contents: Data(value.prettyText.utf8))
        else {
            print("cannot write the generated documents in \(folder.path)")
            return
        }
        pairs.append(("generated", yaml, json))
    }
    for argument in CommandLine.arguments.drop(while: { $0 != "--contracts-document" }).dropFirst().prefix(1) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { pairs.append((URL(fileURLWithPath: parts[0]).lastPathComponent, parts[0], parts[1])) }
    }
    var table = Table(title: "API documents: read and index (OpenAPIDocument.load), in this process")
    table.add("document", "form", "file MB", "nodes", "wall", "peak added MB", "added / file", "same value as the other form")
    for pair in pairs {
        var documents: [OpenAPIDocument] = []
        for (form, path) in [("YAML", pair.yaml), ("JSON", pair.json)] {
            let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576
            let (document, wall, added) = ProcessMemory.measure { try? OpenAPIDocument.load(path: path) }
            guard let document else {
                table.add(pair.label, form, format(size), "-", "does not load", "", "", "")
                continue
            }
            documents.append(document)
            let same: String
            if documents.count == 2 {
                let (left, right) = (documents[0], documents[1])
                let started = ContinuousClock.now
                let equal = DocumentTree.sameValue(left.files[0], left.files[0].root, right.files[0], right.files[0].root)
                same = "\(equal ? "yes" : "NO") (compared in \(format((ContinuousClock.now - started).seconds * 1000)) ms)"
            } else {
                same = ""
            }
            table.add(
                pair.label, form, format(size), "\(document.files.reduce(0) { $0 + $1.nodeCount })", "\(format(wall.seconds, 3)) s",
                format(added), format(added / max(size, 0.001), 2), same)
        }
    }
    table.print()
    print("peak added: the highest resident memory while reading, less what the process held before it (Linux: VmHWM after clear_refs)")
    corpusVerification()
}

/// The corpus against the repository's document: in this process (document, scenarios, checks),
/// and as `scenario verify` in a process of its own.
private func corpusVerification() {
    var table = Table(title: "Verifying the corpus against Scenarios/openapi.yaml")
    table.add("what", "wall", "exchanges")
    let driver = SessionKitDriver()
    let started = ContinuousClock.now
    guard let document = try? OpenAPIDocument.load(path: repository + "/Scenarios/openapi.yaml"),
        let entries = try? SuiteRunner(driver: driver).load([repository + "/Scenarios"])
    else {
        print("the corpus or its document does not load")
        return
    }
    let loaded = ContinuousClock.now
    let verifier = OpenAPIVerifier(document: document)
    let run = ContractVerification.run(entries, against: "Scenarios/openapi.yaml", driver: driver, showSecrets: false, verdict: verifier.verify)
    let done = ContinuousClock.now
    let exchanges = run.exchangeCounts.values.reduce(0, +)
    table.add("load document and scenarios", "\(format((loaded - started).seconds * 1000)) ms", "")
    table.add("verify (parse for places, check, mask)", "\(format((done - loaded).seconds * 1000)) ms", "\(exchanges), \(run.findingCount) findings")
    let child = Measure.child(scenarioProgram, ["verify", "Scenarios", "--openapi", "Scenarios/openapi.yaml"], in: repository)
    table.add("scenario verify (a process of its own)", "\(format(child.wall.seconds * 1000)) ms (exit \(child.status)), peak \(format(child.peakMegabytes)) MB", "")
    table.print()
}

/// The peak resident memory a piece of work adds, on Linux by resetting the process's high-water
/// mark first (`/proc/self/clear_refs`); elsewhere nothing is measured.
enum ProcessMemory {
    static func measure<T>(_ work: () -> T) -> (T, Duration, Double) {
        let before = kilobytes("VmRSS:")
        resetPeak()
        let started = ContinuousClock.now
        let result = work()
        let wall = ContinuousClock.now - started
        let peak = kilobytes("VmHWM:")
        return (result, wall, Double(max(0, peak - before)) / 1024)
    }

    private static func resetPeak() {
        #if os(Linux)
            try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        #endif
    }

    private static func kilobytes(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) } ?? 0
    }
}
