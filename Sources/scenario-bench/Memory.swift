import Foundation
import ScenarioKit
import SessionKitDriver

// Memory in the number of scenarios: through the release CLI (the largest process, at one job
// and at the default jobs, with and without reports), and what a test bundle's process keeps
// per scenario it runs (in this process, through `ScenarioRunner.run`, as ScenarioTesting does).

/// The brief's four cases, whose copies make the generated corpora.
let briefCases = [
    "blocked-user/concurrent-403s-log-out-once", "rate-limit/reset-429-retry-after-delta-seconds",
    "token-refresh/token-expiry-then-single-shared-refresh", "startup/user-inactive-at-startup",
]

/// A folder of `count` scenarios: the brief's four cases, copied with unique names.
func generatedCorpus(_ count: Int) -> String? {
    let folder = NSTemporaryDirectory() + "scenario-bench-\(count)-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.removeItem(atPath: folder)
    for (index, name) in briefCases.enumerated() {
        guard let data = FileManager.default.contents(atPath: "Scenarios/\(name).json") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // Names are unique in a run: number each copy's.
        guard let name = text.range(of: #""name": ""#) else { return nil }
        let sub = "\(folder)/case\(index)"
        try? FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        for copy in 0..<(count / briefCases.count) {
            let unique = text.replacingCharacters(in: name, with: "\"name\": \"#\(copy) ")
            _ = FileManager.default.createFile(atPath: "\(sub)/\(copy).json", contents: Data(unique.utf8))
        }
    }
    return folder
}

/// This process's resident memory in kilobytes, once freed pages went back to the system, so
/// what is counted is what the process keeps (Linux; `nil` elsewhere).
func residentKilobytes() -> Int? {
    FreedMemory.release()
    return statusKilobytes(getpid(), "VmRSS:")
}

/// Starts this process's peak resident memory (`VmHWM`) again from what it holds now: then
/// ``peakKilobytes()`` is the peak of what runs in between (Linux).
func resetPeak() {
    #if os(Linux)
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return }
        _ = write(file, "5", 1)
        close(file)
    #endif
}

/// This process's peak resident memory since ``resetPeak()``, in kilobytes (Linux; `nil` elsewhere).
func peakKilobytes() -> Int? { statusKilobytes(getpid(), "VmHWM:") }

/// Bytes this process keeps per scenario run through `ScenarioRunner.run`: its resident growth
/// between `count` and `2 × count` runs (after a warm-up), divided by `count`.
func keptPerScenario(_ scenarios: [Scenario], driver: any ScenarioDriver, count: Int) async -> Double? {
    guard !scenarios.isEmpty else { return nil }
    let runner = ScenarioRunner(driver: driver)
    func run(_ runs: Int) async {
        for index in 0..<runs { _ = await runner.run(scenarios[index % scenarios.count]) }
    }
    await run(count)
    guard let first = residentKilobytes() else { return nil }
    await run(count)
    guard let second = residentKilobytes() else { return nil }
    return Double(second - first) * 1024 / Double(count)
}

@MainActor func memoryFigures() async {
    // A test bundle runs every scenario in one process: what each run leaves behind adds up.
    let count = quick ? 300 : 1_000
    var bundle = Table(title: "A test bundle's process: memory kept per scenario run in-process (ScenarioRunner.run)")
    bundle.add("driver, scenarios", "runs", "resident growth per scenario, \(count) → \(2 * count) runs")
    let brief = briefCases.compactMap { loadFile("Scenarios/\($0).json") }
    let kept = await keptPerScenario(brief, driver: SessionKitDriver(), count: count)
    bundle.add("SessionKit, the brief's four cases", "\(2 * count)", kept.map { "\(format($0 / 1024, 2)) KB" } ?? "n/a")
    // The way most adopters' drivers go: a URLSession of the stack's own, from the run's configuration.
    if let fetch = load(BenchScenarios.fetch.compactText, driver: BenchDriver()) {
        let kept = await keptPerScenario([fetch], driver: BenchDriver(), count: count)
        bundle.add(
            "minimal driver, one request through its own URLSession", "\(2 * count)", kept.map { "\(format($0 / 1024, 2)) KB" } ?? "n/a")
    }
    bundle.print()
    print("(resident memory read after malloc_trim; 0 is flat: a page or two of noise either way is ±0.01 KB)")

    guard FileManager.default.isExecutableFile(atPath: scenarioProgram) else {
        print("\n(no \(scenarioProgram): build it with `swift build -c release` for the memory figures through the CLI)")
        return
    }
    // 10× the scenarios either way; `--quick` runs 500 and 5,000.
    let (small, large) = quick ? (500, 5_000) : (1_000, 10_000)
    var scaling = Table(title: "Memory in the number of scenarios: generated corpora of the brief's four cases, through the CLI")
    scaling.add("scenarios", "jobs", "reports", "wall", "scenarios / s", "peak MB, largest process", "peak MB, all processes")
    var peaks: [String: ChildRun] = [:]
    for count in [small, large] {
        guard let folder = generatedCorpus(count) else { continue }
        defer {
            for path in [folder, folder + "-junit.xml", folder + "-results.json"] { try? FileManager.default.removeItem(atPath: path) }
        }
        for jobs in Set([1, cores]).sorted() {
            for reports in [false, true] {
                let arguments =
                    ["run", folder, "--quiet", "--jobs", "\(jobs)"]
                    + (reports ? ["--junit", folder + "-junit.xml", "--json", folder + "-results.json"] : ["--no-reports"])
                let run = Measure.child(scenarioProgram, arguments, in: repository)
                peaks["\(count) \(jobs) \(reports)"] = run
                scaling.add(
                    "\(count)\(run.status == 0 ? "" : " (exit \(run.status))")", "\(jobs)", reports ? "JUnit, JSON" : "off",
                    "\(format(run.wall.seconds, 2)) s", format(Double(count) / run.wall.seconds, 0), format(run.peakMegabytes),
                    run.peakTotalMegabytes.map { format($0) } ?? "n/a")
            }
        }
    }
    var summary: [String] = []
    for jobs in Set([1, cores]).sorted() {
        for reports in [false, true] {
            guard let low = peaks["\(small) \(jobs) \(reports)"], let high = peaks["\(large) \(jobs) \(reports)"] else { continue }
            let totals = high.peakTotalMegabytes.flatMap { high in low.peakTotalMegabytes.map { high / $0 } }
            scaling.add(
                "\(large) ÷ \(small)", "\(jobs)", reports ? "JUnit, JSON" : "off", "× \(format(high.wall.seconds / low.wall.seconds, 2))",
                "",
                "× \(format(high.peakMegabytes / low.peakMegabytes, 2))", totals.map { "× \(format($0, 2))" } ?? "n/a")
            summary.append(
                "--jobs \(jobs), reports \(reports ? "on" : "off"): \(format(high.peakMegabytes)) MB, × \(format(high.peakMegabytes / low.peakMegabytes, 2))"
            )
        }
    }
    scaling.print()
    print(
        "largest process at \(large) scenarios, and its peak ÷ the peak at \(small) (targets at 10,000: under 100 MB; at most × 1.3, × 1.0 is flat):"
    )
    for line in summary { print("  " + line) }
}
