import Foundation
import ScenarioKit
import SessionKitDriver

/// `--contracts`: reading and indexing API documents in YAML and in JSON (time, and the peak
/// memory the read adds, in a process of its own), whether both forms give the same value, and
/// verifying the corpus against Scenarios/openapi.yaml. `--contracts-document A.yaml=A.json`
/// (repeatable) adds a real document in both forms (one a package ships; never kept in the
/// repository: `scripts/bench-public-documents`).
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
    let arguments = CommandLine.arguments
    for (index, argument) in arguments.enumerated() where argument == "--contracts-document" && index + 1 < arguments.count {
        let parts = arguments[index + 1].split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { pairs.append((URL(fileURLWithPath: parts[0]).lastPathComponent, parts[0], parts[1])) }
    }
    var table = Table(title: "API documents: read and index (OpenAPIDocument.load)")
    table.add(
        "document", "form", "file MB", "nodes", "read+index", "in a fresh process", "peak added MB", "added / file",
        "same value as the other form")
    for pair in pairs {
        var documents: [OpenAPIDocument] = []
        for (form, path) in [("YAML", pair.yaml), ("JSON", pair.json)] {
            let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576
            let started = ContinuousClock.now
            let loaded = try? OpenAPIDocument.load(path: path)
            let wall = ContinuousClock.now - started
            guard let document = loaded else {
                table.add(pair.label, form, format(size), "-", "does not load", "", "", "", "")
                continue
            }
            let fresh = DocumentLoad.inFreshProcess(path)
            documents.append(document)
            var same = ""
            if documents.count == 2 {
                let (left, right) = (documents[0], documents[1])
                let compared = ContinuousClock.now
                let equal = DocumentTree.sameValue(left.files[0], left.files[0].root, right.files[0], right.files[0].root)
                same = "\(equal ? "yes" : "NO") (compared in \(format((ContinuousClock.now - compared).seconds * 1000)) ms)"
            }
            table.add(
                pair.label, form, format(size), "\(document.files.reduce(0) { $0 + $1.nodeCount })", "\(format(wall.seconds, 3)) s",
                fresh.map { "\(format($0.wall, 3)) s" } ?? "-", fresh.map { format($0.added) } ?? "-",
                fresh.map { format($0.added / max(size, 0.001), 2) } ?? "-", same)
        }
    }
    table.print()
    print("peak added: the process's high-water mark after the read less before it (VmHWM), in a benchmark process started for it")
    corpusVerification()
    documentVerification()
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
    let run = ContractVerification.run(
        entries, against: "Scenarios/openapi.yaml", driver: driver, showSecrets: false, verdict: verifier.verify)
    let done = ContinuousClock.now
    let exchanges = run.exchangeCounts.values.reduce(0, +)
    table.add("load document and scenarios", "\(format((loaded - started).seconds * 1000)) ms", "")
    table.add(
        "verify (parse for places, check, mask)", "\(format((done - loaded).seconds * 1000)) ms",
        "\(exchanges), \(run.findingCount) findings")
    let child = Measure.child(scenarioProgram, ["verify", "Scenarios", "--openapi", "Scenarios/openapi.yaml"], in: repository)
    table.add(
        "scenario verify (a process of its own)",
        "\(format(child.wall.seconds * 1000)) ms (exit \(child.status)), peak \(format(child.peakMegabytes)) MB", "")
    table.print()
}

/// A document read in a process of its own (this program started again with
/// `--contracts-load PATH`), which reports what the read added to its peak memory: the
/// benchmark's own memory, the generated documents included, stays out of the figure.
enum DocumentLoad {
    /// In the started process: reads the document and prints `wall-seconds added-megabytes`.
    static func reportIfAsked() {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: "--contracts-load"), index + 1 < arguments.count else { return }
        let before = highWaterKilobytes()
        let started = ContinuousClock.now
        let document = try? OpenAPIDocument.load(path: arguments[index + 1])
        let wall = ContinuousClock.now - started
        let added = Double(highWaterKilobytes() - before) / 1024
        print(document == nil ? "error" : "\(wall.seconds) \(added)")
        exit(document == nil ? 2 : 0)
    }

    static func inFreshProcess(_ path: String) -> (wall: Double, added: Double)? {
        #if os(Linux)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["--contracts-load", path]
            let output = Pipe()
            process.standardOutput = output
            guard (try? process.run()) != nil else { return nil }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let fields = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
                Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        #else
            return nil
        #endif
    }

    private static func highWaterKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) } ?? 0
    }
}
