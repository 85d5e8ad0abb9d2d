import Foundation
import ScenarioKit
import SessionKitDriver

// `scenario-bench`: figures, side by side, never a verdict. Build and run in release:
//   swift build -c release && .build/release/scenario-bench
// It reads Scenarios/ and runs the `scenario` program built beside it. `--quick` runs less;
// `--traces` prints only the trace import figures; `--exchanges` only the per-exchange ones (to
// profile the engine's share); `--shrink` only the shrink figures; `--contracts` only the API document figures;
// `--memory` only the memory ones; `--recorder` only the app recorder's.

let repository = FileManager.default.currentDirectoryPath
let binFolder = Bundle.main.executableURL?.deletingLastPathComponent().path ?? "."
let scenarioProgram = binFolder + "/scenario"
let cores = ProcessInfo.processInfo.activeProcessorCount
let quick = CommandLine.arguments.contains("--quick")

// `--traces`: only the trace import figures (they need the release `scenario` beside the bench).
if CommandLine.arguments.contains("--traces") {
    traceFigures()
    exit(0)
}

// This program started again as a worker of the shrink figures; `--shrink`: only those figures.
if CommandLine.arguments.dropFirst().first == ShrinkFigures.workerArgument {
    await ShrinkFigures.serveWorker()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == HeldSessionFigures.workerArgument {
    await HeldSessionFigures.serveWorker()
    exit(0)
}
if CommandLine.arguments.contains("--shrink") {
    await ShrinkFigures.print(quick: quick)
    exit(0)
}

// A process the `--contracts` figures start to read one document in.
DocumentLoad.reportIfAsked()

// `--contracts`: only the API document and verification figures.
if CommandLine.arguments.contains("--contracts") {
    contractFigures()
    exit(0)
}

// `--recorder`: only what URLSessionRecorder costs an app (recording, watching invariants).
if CommandLine.arguments.contains("--recorder") {
    await RecorderFigures.print(quick: quick)
    exit(0)
}

// `--memory`: only the memory figures (those through the CLI need the release `scenario` too).
if CommandLine.arguments.contains("--memory") {
    await memoryFigures()
    exit(0)
}

func load(_ json: String, driver: any ScenarioDriver, id: String = "bench") -> Scenario? {
    switch ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(data: Data(json.utf8), file: "\(id).json", id: id) {
    case .success(let scenario): return scenario
    case .failure(let failure):
        print("bench scenario does not load: \(failure)")
        return nil
    }
}

func loadFile(_ path: String) -> Scenario? {
    let driver = SessionKitDriver()
    return try? ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: path, id: path).get()
}

/// Engine cost per exchange: `count` requests in a row through the minimal driver.
func perExchange(route: RunPlan.Route, count: Int) async -> Duration {
    guard let scenario = load(BenchScenarios.sends(count).compactText, driver: BenchDriver()) else { return .zero }
    let result = await ScenarioRunner(driver: BenchDriver(), plan: RunPlan(route: route)).run(scenario)
    precondition(result.status == .passed, "bench scenario failed: \(result.errorMessage ?? "")")
    return result.wallTime / count
}

/// SessionKit's cost per request step: `count` steps of the `request` action.
func sessionKitPerStep(route: RunPlan.Route, count: Int) async -> Duration {
    let driver = SessionKitDriver()
    guard let scenario = load(BenchScenarios.sessionKitRequests(count).compactText, driver: driver) else { return .zero }
    let result = await ScenarioRunner(driver: driver, plan: RunPlan(route: route)).run(scenario)
    precondition(result.status == .passed, "SessionKit bench scenario failed: \(result.errorMessage ?? "")")
    return result.wallTime / count
}

// MARK: - Per exchange

/// The median of `rounds` measurements, with the spread: one round on a shared two-core machine
/// can be twice another when a thread wakes on the other core.
func median(_ rounds: Int, _ measure: () async -> Duration) async -> (median: Duration, low: Duration, high: Duration) {
    var figures: [Duration] = []
    for _ in 0..<rounds { figures.append(await measure()) }
    figures.sort()
    return (figures[figures.count / 2], figures[0], figures[figures.count - 1])
}

// `--engine-only N`: N exchanges on the direct route with the minimal driver, once, and nothing
// else: what a profiler (`perf record`, `valgrind --tool=callgrind`) should look at.
if let flag = CommandLine.arguments.firstIndex(of: "--engine-only") {
    let count = CommandLine.arguments.dropFirst(flag + 1).first.flatMap { Int($0) } ?? 20_000
    let perRequest = await perExchange(route: .direct, count: count)
    print("engine, direct route, minimal driver: \(format(perRequest.microseconds, 2)) µs per exchange (\(count) exchanges)")
    exit(0)
}

let n = quick ? 2_000 : 20_000
let rounds = quick ? 3 : 5
// The in-process floors and the direct route come first: a URLSession leaves threads of its own
// (FoundationNetworking's and libcurl's) that wake now and then and blur figures of a few µs.
let constant = await median(rounds) { await Floors.constantCall(n * 50) }
let hop = await median(rounds) { await Floors.serialHop(n * 10) }
let direct = await median(rounds) { await perExchange(route: .direct, count: n) }
let sessionKitDirect = await median(rounds) { await sessionKitPerStep(route: .direct, count: quick ? 300 : 2_000) }
let stub = await median(rounds) { await Floors.urlProtocolStub(quick ? 500 : 3_000) }
let viaURLSession = await median(rounds) { await perExchange(route: .urlSession, count: quick ? 500 : 3_000) }
let sessionKitURLSession = await median(rounds) { await sessionKitPerStep(route: .urlSession, count: quick ? 200 : 1_000) }

var exchanges = Table(title: "Per exchange (wall time per request, release build; median of \(rounds) rounds)")
exchanges.add("what", "µs", "low–high µs", "× serial hop", "× URLProtocol stub")
@MainActor func row(_ name: String, _ value: (median: Duration, low: Duration, high: Duration)) {
    exchanges.add(
        name, format(value.median.microseconds, 2), "\(format(value.low.microseconds, 2))–\(format(value.high.microseconds, 2))",
        format(value.median.seconds / hop.median.seconds, 1), format(value.median.seconds / stub.median.seconds, 3))
}
row("floor: async call returning a constant", constant)
row("floor: task hop onto an actor and back", hop)
row("floor: raw URLSession + minimal URLProtocol", stub)
row("engine, direct route, minimal driver", direct)
row("engine, URLSession route, minimal driver", viaURLSession)
row("SessionKit request step, direct route", sessionKitDirect)
row("SessionKit request step, URLSession route", sessionKitURLSession)
exchanges.print()
print(
    "engine's own share above the serial-hop floor, direct route: \(format((direct.median - hop.median).microseconds, 2)) µs (target ≤ 5)")
print(
    "engine's URLSession route ÷ raw URLSession + URLProtocol: \(format(viaURLSession.median.seconds / stub.median.seconds, 2)) (target ≤ 1.5)"
)
print(
    "raw URLSession + URLProtocol per exchange ÷ SessionKit's direct step: \(format(stub.median.microseconds / sessionKitDirect.median.microseconds, 1))"
)
if CommandLine.arguments.contains("--exchanges") { exit(0) }

await RecorderFigures.print(quick: quick)

// MARK: - Virtual time

var compression = Table(title: "Virtual-time compression (app seconds per wall second)")
compression.add("scenario", "app time", "wall", "app s / wall s")
if let hour = loadFile("Scenarios/rate-limit/reset-429-one-hour-then-retry-succeeds.json") {
    let result = await ScenarioRunner(driver: SessionKitDriver()).run(hour)
    compression.add(
        "an hour of Retry-After (SessionKit)", "\(format(result.virtualTime.seconds, 0)) s",
        "\(format(result.wallTime.microseconds, 0)) µs",
        format(result.virtualTime.seconds / result.wallTime.seconds, 0))
}
if let day = load(BenchScenarios.dayOfPolling.compactText, driver: BenchDriver()) {
    let result = await ScenarioRunner(driver: BenchDriver()).run(day)
    compression.add(
        "a day of 15 s polling (5,760 ticks, minimal driver)", "\(format(result.virtualTime.seconds, 0)) s",
        "\(format(result.wallTime.microseconds, 0)) µs", format(result.virtualTime.seconds / result.wallTime.seconds, 0))
}
compression.print()

// MARK: - Report folder

// A test bundle's cases record one result each into one folder (ScenarioTesting's `reports:`).
if let hour = loadFile("Scenarios/rate-limit/reset-429-one-hour-then-retry-succeeds.json") {
    let template = await ScenarioRunner(driver: SessionKitDriver()).run(hour)
    var folderTable = Table(title: "Report folder: a test bundle's cases recording one result each")
    folderTable.add("cases", "wall, records and the flush", "cases / s", "peak MB above the start")
    var perCase: [Duration] = []
    for count in quick ? [100, 400] : [250, 1000] {
        let path = NSTemporaryDirectory() + "scenario-bench-reports-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let folder = ReportFolder(path: path)
        let start = residentKilobytes()
        resetPeak()
        let elapsed = ContinuousClock().measure {
            for index in 0..<count {
                var result = template
                result.id = "bench/case-\(index)"
                try? folder.record(result)
            }
            try? folder.flush()
        }
        perCase.append(elapsed / count)
        // Each rewrite reads the folder's results: what it holds at once is the peak.
        let peak = start.flatMap { start in peakKilobytes().map { format(Double($0 - start) / 1024) } } ?? "n/a"
        folderTable.add("\(count)", "\(format(elapsed.seconds, 2)) s", format(Double(count) / elapsed.seconds, 0), peak)
    }
    folderTable.print()
    print(
        "per case, the larger run ÷ the smaller: \(format(perCase[1].seconds / perCase[0].seconds, 2)) (1 is linear; 4 would be quadratic)")
}

// MARK: - Schedules

if let burst = loadFile("Scenarios/blocked-user/concurrent-403s-log-out-once.json") {
    let count = quick ? 20 : 200
    let configuration = SuiteRunner.Configuration(jobs: 1, plan: RunPlan(mode: .explored(schedules: count, seed: 1)))
    let suite = SuiteRunner(driver: SessionKitDriver(), configuration: configuration)
    let entry = SuiteRunner.Entry(path: burst.file, id: burst.id, loaded: .success(burst))
    let outcome = await suite.run(entries: [entry])
    let wall = outcome.run.wallTime
    var schedules = Table(title: "Schedule exploration")
    schedules.add("scenario", "schedules", "wall", "schedules / s")
    schedules.add(burst.id, "\(count)", "\(format(wall.seconds * 1000, 0)) ms", format(Double(count) / wall.seconds, 0))
    schedules.print()
}

// MARK: - Shrinking

await ShrinkFigures.print(quick: quick)

// MARK: - Corpus and scaling, through the release CLI

guard FileManager.default.isExecutableFile(atPath: scenarioProgram) else {
    print("\n(no \(scenarioProgram): build it with `swift build -c release` for the corpus and scaling figures)")
    exit(0)
}

var corpus = Table(title: "The corpus through the CLI (process start included)")
corpus.add("run", "scenarios", "wall", "scenarios / s", "peak MB, largest process", "peak MB, all processes")
let corpusCount =
    (try? FileManager.default.subpathsOfDirectory(atPath: "Scenarios").filter {
        $0.hasSuffix(".json") && !$0.hasSuffix("schema.json") && !$0.hasSuffix("invariants.json")
    }
    .count) ?? 0
for jobs in Set([1, cores]).sorted() {
    let run = Measure.child(scenarioProgram, ["run", "Scenarios", "--no-reports", "--quiet", "--jobs", "\(jobs)"], in: repository)
    corpus.add(
        "Scenarios/, --jobs \(jobs)\(run.status == 0 ? "" : " (exit \(run.status))")", "\(corpusCount)",
        "\(format(run.wall.seconds * 1000, 0)) ms", format(Double(corpusCount) / run.wall.seconds, 0), format(run.peakMegabytes),
        run.peakTotalMegabytes.map { format($0) } ?? "n/a")
}
for jobs in Set([1, cores]).sorted() where !quick {
    // Every scenario under 100 schedules: jobs, Dispatch blocks and answers in flight reordered.
    let run = Measure.child(
        scenarioProgram, ["run", "Scenarios", "--no-reports", "--quiet", "--jobs", "\(jobs)", "--schedules", "100", "--seed", "1"],
        in: repository)
    corpus.add(
        "Scenarios/, 100 schedules, --jobs \(jobs)\(run.status == 0 ? "" : " (exit \(run.status))")", "\(corpusCount * 100)",
        "\(format(run.wall.seconds * 1000, 0)) ms", format(Double(corpusCount * 100) / run.wall.seconds, 0), format(run.peakMegabytes),
        run.peakTotalMegabytes.map { format($0) } ?? "n/a")
}
corpus.print()

await memoryFigures()

// MARK: - Trace import, through the release CLI

/// A HAR of `count` entries a SessionKit app could send: a feed page every third call, a like
/// otherwise, 0.7 s apart, 200 distinct bearer tokens, JSON bodies both ways.
func generatedTrace(_ count: Int) -> String? {
    let path = NSTemporaryDirectory() + "scenario-bench-trace-\(count)-\(ProcessInfo.processInfo.processIdentifier).har"
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let origin = Date(timeIntervalSince1970: 1_767_225_600)
    handle.write(Data(#"{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":["#.utf8))
    var chunk = ""
    for index in 0..<count {
        let token = "acc-live-\(String(format: "%04d", index % 200))XyZ"
        let started = formatter.string(from: origin.addingTimeInterval(Double(index) * 0.7))
        let request: String
        let answer: String
        if index % 3 == 0 {
            request =
                #"{"method":"GET","url":"https://api.example.com/feed?page=\#(index % 50)","httpVersion":"HTTP/1.1","headers":[{"name":"Authorization","value":"Bearer \#(token)"},{"name":"Accept","value":"application/json"}],"queryString":[{"name":"page","value":"\#(index % 50)"}],"cookies":[],"headersSize":-1,"bodySize":0}"#
            answer =
                #"{\"success\":true,\"data\":{\"items\":[{\"id\":\"it-\#(index)\",\"title\":\"Item\"},{\"id\":\"it-\#(index + 1)\",\"title\":\"Item\"}]}}"#
        } else {
            request =
                #"{"method":"POST","url":"https://api.example.com/items/\#(index)/like","httpVersion":"HTTP/1.1","headers":[{"name":"Authorization","value":"Bearer \#(token)"},{"name":"Content-Type","value":"application/json"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":20,"postData":{"mimeType":"application/json","text":"{\"like\":true,\"n\":\#(index)}"}}"#
            answer = #"{\"success\":true,\"data\":{\"likes\":\#(index)}}"#
        }
        chunk +=
            (index == 0 ? "" : ",") + #"{"startedDateTime":"\#(started)","time":12.5,"request":\#(request),"#
            + #""response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[{"name":"Content-Type","value":"application/json"}],"cookies":[],"content":{"size":40,"mimeType":"application/json","text":"\#(answer)"},"redirectURL":"","headersSize":-1,"bodySize":40},"cache":{},"timings":{"send":1,"wait":10,"receive":1.5}}"#
        if chunk.utf8.count > 1 << 20 {
            handle.write(Data(chunk.utf8))
            chunk = ""
        }
    }
    handle.write(Data((chunk + "]}}").utf8))
    return path
}

/// Import and redaction of generated traces through the release CLI: wall and CPU time, and
/// peak memory beside the file's size.
func traceFigures() {
    var traces = Table(title: "Trace import and redaction: generated HAR, release `scenario`")
    traces.add(
        "entries", "file MB", "import wall", "import CPU", "import peak MB", "peak / file", "redact wall", "redact CPU", "redact peak MB",
        "peak / file")
    var importFigures: [Int: Duration] = [:]
    for count in quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] {
        guard let har = generatedTrace(count) else { continue }
        let output = har + ".json"
        let redacted = har + ".redacted.har"
        defer { for path in [har, output, redacted] { try? FileManager.default.removeItem(atPath: path) } }
        let size = Double((try? FileManager.default.attributesOfItem(atPath: har)[.size] as? Int) ?? 0) / 1_048_576
        let run = Measure.child(scenarioProgram, ["import", har, "-o", output], in: repository)
        let redact = Measure.child(scenarioProgram, ["redact", har, "-o", redacted], in: repository)
        importFigures[count] = run.cpu
        traces.add(
            "\(count)\(run.status == 0 ? "" : " (exit \(run.status))")", format(size), "\(format(run.wall.seconds, 2)) s",
            "\(format(run.cpu.seconds, 2)) s", format(run.peakMegabytes), format(run.peakMegabytes / max(size, 0.001), 2),
            "\(format(redact.wall.seconds, 2)) s\(redact.status == 0 ? "" : " (exit \(redact.status))")",
            "\(format(redact.cpu.seconds, 2)) s",
            format(redact.peakMegabytes), format(redact.peakMegabytes / max(size, 0.001), 2))
    }
    if let small = importFigures[1_000], let large = importFigures[100_000] ?? importFigures[10_000] {
        let factor = importFigures[100_000] != nil ? 100 : 10
        traces.add("×\(factor) entries", "", "", "× \(format(large.seconds / small.seconds, 1))", "", "", "", "", "", "")
    }
    traces.print()
    // A process starts at some 30 MB whatever it reads: peak / file means something for large files.
    print("peak / file counts the whole process; the 10^5 row is the one the bound is about")
}

traceFigures()
contractFigures()
