import FieldSessionDriver
import Foundation
import HTTPCore
import SampleApp
import SampleAppDriver
import ScenarioKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's debug build with the recorder watching its own traffic against the team's
/// `invariants.json`: the sample app's field build, whose feed screen has a client of its own,
/// spends a refresh token twice against a real backend on 127.0.0.1, and the recorder saves, by
/// itself, a redacted HAR naming the broken invariant, which `scenario import` reads; the app
/// with one client saves nothing. The name ends the way CI's thread-sanitizer pass skips the
/// recorder's real-traffic suites (libcurl's resolver threads).
@Suite(.timeLimit(.minutes(5))) struct WatchingURLSessionRecorderTests {
    static let expiredAccess = "acc-watch-0Xq7Lm2Pw9Tb"
    static let firstRefresh = "ref-watch-0Zt4Kd8Vn3Yc"

    /// A backend whose refresh tokens rotate: each is good once, and a spent one is refused, as a
    /// careful backend does (the field bug then logs the user out).
    final class RotatingBackend: @unchecked Sendable {
        // Guards the tokens.
        private let lock = NSLock()
        private var access = "acc-watch-unused"
        private var refresh = WatchingURLSessionRecorderTests.firstRefresh
        private var round = 0

        func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
            lock.withLock {
                switch (request.method, request.path) {
                case ("POST", "/auth/refresh"):
                    guard request.json?["refresh_token"] as? String == refresh else {
                        return .json(401, #"{"success":false,"error_code":"TOKEN_INVALID"}"#)
                    }
                    round += 1
                    access = "acc-watch-\(round)-R5s8Jf2Lq"
                    refresh = "ref-watch-\(round)-M3n6Bv9Xc"
                    return .json(
                        200, #"{"success":true,"data":{"access_token":"\#(access)","refresh_token":"\#(refresh)","expires_in":3600}}"#)
                case ("GET", "/feed"), ("GET", "/notifications"):
                    guard request.header("Authorization") == "Bearer \(access)" else {
                        return .json(401, #"{"success":false,"error_code":"TOKEN_EXPIRED"}"#)
                    }
                    return .json(200, #"{"success":true,"data":{"items":[]}}"#)
                default:
                    return .json(404, #"{"success":false,"error_code":"NOT_FOUND"}"#)
                }
            }
        }
    }

    /// The breaks a watch tells, in order.
    final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var told: [BrokenInvariant] = []
        func add(_ broken: BrokenInvariant) { lock.withLock { told.append(broken) } }
        var all: [BrokenInvariant] { lock.withLock { told } }
    }

    /// The sample app's rules (the same file its field session's scenarios are judged by).
    static let rules = RepositoryPaths.root.appendingPathComponent("Examples/FieldSession/Scenarios/invariants.json")

    /// The app's home screen opened once, as its debug build starts it, against a fresh rotating
    /// backend: the configuration its clients' sessions are built from has the recorder installed
    /// and watching the team's rules. The field build's feed screen has a client of its own.
    struct HomeRun {
        let server: LoopbackServer
        let folder: TemporaryFolder
        let traces: URL
        let told = Told()

        init(feedHasItsOwnClient: Bool, recorder: URLSessionRecorder) async throws {
            let backend = RotatingBackend()
            server = try LoopbackServer { backend.answer($0) }
            folder = try TemporaryFolder()
            traces = folder.url.appendingPathComponent("broken-rules")
            let configuration = URLSessionConfiguration.ephemeral
            recorder.install(in: configuration)
            let told = told
            try recorder.watch(invariantsAt: WatchingURLSessionRecorderTests.rules, savingTracesIn: traces) { told.add($0) }
            let tokens = SessionTokens(
                access: WatchingURLSessionRecorderTests.expiredAccess, refresh: WatchingURLSessionRecorderTests.firstRefresh)
            let app = APIClient(configuration: configuration, baseURL: server.url, tokens: tokens)
            let feed = feedHasItsOwnClient ? APIClient(configuration: configuration, baseURL: server.url, tokens: tokens) : app
            // The notifications load with an expired token, then the feed: each client refreshes
            // with the one refresh token both were given. One after the other, so the trace saved
            // is the same on every run and on any machine (two loads at the same instant race for
            // which refresh the backend takes first).
            _ = try? await app.send("GET", "/notifications")
            _ = try? await feed.send("GET", "/feed")
            // Everything the recorder handed the judge is judged, and the main actor has been told.
            recorder.settleWatch()
            await MainActor.run {}
        }

        /// The traces written, by name.
        var saved: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: traces.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        }
    }

    @Test func theFieldBuildSpendsARefreshTokenTwiceAndTheRecorderSavesATraceThatImports() async throws {
        let run = try await HomeRun(feedHasItsOwnClient: true, recorder: URLSessionRecorder())
        let (server, folder, traces, told) = (run.server, run.folder, run.traces, run.told)

        let refreshes = server.requests.filter { $0.path == "/auth/refresh" }
        #expect(refreshes.map { $0.json?["refresh_token"] as? String } == [Self.firstRefresh, Self.firstRefresh], "the bug, on the wire")
        let saved = run.saved
        let spent = try #require(saved.first { $0.hasPrefix("refresh-token-spent-once-") }, "\(saved)")
        #expect(told.all.contains { $0.invariant == "refresh-token-spent-once" && $0.file?.lastPathComponent == spent })
        // Whatever else broke beside it (a rotated token sent again, a replaced access token used) is a rule of that file too.
        let allowed: Set<String> = [
            "refresh-token-spent-once", "refresh-token-not-after-rotation", "one-refresh-at-a-time", "access-token-not-after-replaced",
        ]
        #expect(Set(told.all.map(\.invariant)).isSubset(of: allowed), "\(told.all.map(\.invariant))")
        #expect(saved.count == told.all.count)

        let text = try String(contentsOf: traces.appendingPathComponent(spent), encoding: .utf8)
        #expect(CanaryForms.leaks(of: [Self.expiredAccess, Self.firstRefresh], in: text).map(\.canary) == [])
        let log = try HARReader(file: spent).read(Data(text.utf8))
        // Two 401s and two refreshes; the retry after the refresh that passed, when it had finished by then.
        let paths = log.entries.map { "\($0.request.method) \(URLComponents(string: $0.request.url)?.path ?? "")" }
        #expect(paths.filter { $0 == "POST /auth/refresh" }.count == 2, "\(paths)")
        #expect((4...5).contains(log.entries.count), "\(paths)")
        let comment = try #require(JSONValue.parse(Data(text.utf8))?["log"]?["comment"]?.stringValue)
        #expect(comment.contains("the invariant 'refresh-token-spent-once' broke: 2 requests carry the same JSON member refresh_token"))
        #expect(comment.contains("Not judged from traffic: auth-state-moves-along-the-state-machine (timeline reads"))

        // The saved trace is a capture like any other: `scenario import` makes a scenario that loads.
        try FileManager.default.copyItem(at: traces.appendingPathComponent(spent), to: folder.url.appendingPathComponent("field.har"))
        let imported = try ScenarioBinary.run(["import", "field.har", "-o", "field.json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.stdout.contains("Imported \(log.entries.count) of \(log.entries.count) entries"), "\(imported.output)")
        let lint = try ScenarioBinary.run(["lint", "field.json"], in: folder.url)
        #expect(lint.status == 0, "\(lint.output)")
        #expect(CanaryForms.leaks(of: [Self.expiredAccess, Self.firstRefresh], in: try folder.read("field.json")).map(\.canary) == [])
    }

    @Test func theAppWithOneClientRefreshesOnceAndNothingIsSaved() async throws {
        let recorder = URLSessionRecorder()
        let run = try await HomeRun(feedHasItsOwnClient: false, recorder: recorder)
        let (server, told) = (run.server, run.told)

        #expect(server.requests.filter { $0.path == "/auth/refresh" }.count == 1)
        #expect(
            server.requests.filter { $0.header("Authorization") != "Bearer \(Self.expiredAccess)" && $0.path != "/auth/refresh" }.count == 2
        )
        // The notifications' 401, the refresh, their retry, and the feed (with the new token, or
        // refused and retried when it left before the refresh came back).
        #expect(recorder.log().entries.count >= 4, "the traffic was recorded and judged")
        #expect(run.saved == [])
        #expect(told.all.isEmpty, "\(told.all.map(\.message))")
    }

    /// The loop closes: the trace the field build saved becomes, through import and shrink with
    /// the field build's driver, a small scenario that fails on the bug by the broken invariant;
    /// run on the sample app as fixed, it is the regression test.
    @Test func theSavedTraceShrinksToARegressionTest() async throws {
        let run = try await HomeRun(feedHasItsOwnClient: true, recorder: URLSessionRecorder())
        let (folder, told) = (run.folder, run.told)
        let file = try #require(told.all.first { $0.invariant == "refresh-token-spent-once" }?.file)

        let driver = FieldSessionDriver()
        let trace = try HARReader(file: file.lastPathComponent).read(bytes: FileBytes.read(file.path))
        let (text, _) = try TraceImporter(spec: driver.traceImport).importScenario(
            from: trace, file: file.lastPathComponent, actions: driver.actions, givenKeys: driver.givenKeys)
        let draft = try folder.write("field/field.json", text)
        try FileManager.default.copyItem(at: Self.rules, to: folder.url.appendingPathComponent("field/invariants.json"))
        var settings = ShrinkSettings()
        settings.same = "invariants"
        settings.timeLimit = .seconds(3_600)
        let output = folder.path("field/field-shrunk.json")
        let outcome = await ScenarioShrinker(driver: driver, plan: RunPlan(), settings: settings).shrink(
            DiscoveredScenario(path: draft, id: "field"), to: output)
        guard case .written(let report) = outcome else {
            Issue.record("not shrunk: \(outcome)")
            return
        }
        #expect(report.kept.parts.map(\.key).contains("invariant:refresh-token-spent-once"), "\(report.summary)")
        let shrunk = try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: output, id: "field-shrunk")
            .get()
        // The notifications started, the feed a moment later, the notifications awaited; the two
        // refusals, the refresh that passed and the one refused, the retry.
        #expect(shrunk.steps.count <= 4 && shrunk.exchanges.count <= 5, "\(report.summary)")
        // On the field build it fails by the broken rules alone; on the sample app with one client it passes.
        let onBug = await ScenarioRunner(driver: driver).run(shrunk)
        #expect(onBug.failures.map(\.label).contains("invariant refresh-token-spent-once"), "\(onBug.failures.map(\.summary))")
        #expect(onBug.failures.allSatisfy { $0.label.hasPrefix("invariant ") }, "\(onBug.failures.map(\.summary))")
        let onFix = await ScenarioRunner(driver: SampleAppDriver()).run(shrunk)
        #expect(onFix.status == .passed, "\(onFix.failures.map(\.summary))")
    }

    /// The process's own recorder, as the README's lines use it.
    @Test func theSharedRecorderWatchesAsTheReadmeSays() async throws {
        defer { URLSessionRecorder.shared.stopWatching() }
        let run = try await HomeRun(feedHasItsOwnClient: true, recorder: .shared)
        #expect(run.told.all.contains { $0.invariant == "refresh-token-spent-once" && $0.file != nil })
    }
}
