import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// A watching `URLSessionRecorder` judges the exchanges it records against an `invariants.json`
/// with the engine's own checker, on the device's clock, and saves a redacted trace per broken
/// rule. The exchanges here are handed to the recorder as its URL protocol hands them (no
/// network: the loopback tests are `WatchingURLSessionRecorderTests`), at instants the test
/// chooses, so wall-clock rules are judged without waiting.
@Suite(.timeLimit(.minutes(1))) struct LiveJudgingTests {
    static let rules = #"""
        {
          "invariants": [
            { "id": "refresh-token-spent-once", "description": "A refresh token is sent once.",
              "check": "neverSentTwice", "requests": { "method": "POST", "path": "/auth/refresh" }, "value": { "json": "refresh_token" } },
            { "id": "no-retry-before-retry-after", "description": "Nothing goes to a route before its Retry-After ends.",
              "check": "respectsRetryAfter" },
            { "id": "one-feed-at-a-time", "description": "At most one GET /feed away at once.",
              "check": "maxInFlight", "requests": { "method": "GET", "path": "/feed" }, "max": 1 },
            { "id": "blocked-alert-once", "description": "One Account Blocked alert per session.",
              "check": "alertAtMost", "alert": { "title": "Account Blocked" } }
          ]
        }
        """#

    /// A folder with the rule file and the folder traces go to; removed at the end.
    final class Place {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("live-judging-\(UUID().uuidString)")
        var rules: URL { root.appendingPathComponent("invariants.json") }
        var traces: URL { root.appendingPathComponent("traces") }

        init(rules text: String = LiveJudgingTests.rules) throws {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: rules)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        var saved: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: traces.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        }

        func read(_ name: String) throws -> HARLog {
            try HARReader(file: name).read(Data(contentsOf: traces.appendingPathComponent(name)))
        }

        func text(_ name: String) throws -> String { try String(contentsOf: traces.appendingPathComponent(name), encoding: .utf8) }
    }

    /// The breaks a watch tells, in order.
    final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var told: [BrokenInvariant] = []
        private var waiting: [(count: Int, done: CheckedContinuation<Void, Never>)] = []

        func add(_ broken: BrokenInvariant) {
            let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                told.append(broken)
                let ready = waiting.filter { $0.count <= told.count }.map(\.done)
                waiting.removeAll { $0.count <= told.count }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }

        var all: [BrokenInvariant] { lock.withLock { told } }

        /// Returns once `count` breaks were told (the suite's time limit bounds it).
        func wait(for count: Int) async {
            await withCheckedContinuation { continuation in
                let now = lock.withLock { () -> Bool in
                    if told.count >= count { return true }
                    waiting.append((count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Exchanges handed to the recorder as its URL protocol hands them, at chosen instants.
    struct Traffic {
        let recorder: URLSessionRecorder
        /// After the watch began, so every instant counts.
        let start = Date().addingTimeInterval(5)

        func send(_ method: String, _ path: String, at seconds: Double, json: String? = nil, bearer: String? = nil) -> Int {
            var headers: [HARLog.Field] = bearer.map { [HARLog.Field("Authorization", "Bearer \($0)")] } ?? []
            if json != nil { headers.append(HARLog.Field("Content-Type", "application/json")) }
            return recorder.begin(
                HARLog.Request(
                    method: method, url: "https://api.example.com\(path)", headers: headers, body: json,
                    mimeType: json.map { _ in "application/json" }),
                at: start.addingTimeInterval(seconds))
        }

        func answer(_ id: Int, _ status: Int, json: String = "{}", headers: [HARLog.Field] = [], at seconds: Double) {
            let fields = [HARLog.Field("Content-Type", "application/json")] + headers
            recorder.finish(
                id, response: HARLog.Response(status: status, headers: fields, body: Data(json.utf8), mimeType: "application/json"),
                at: start.addingTimeInterval(seconds))
        }

        @discardableResult
        func exchange(
            _ method: String, _ path: String, at seconds: Double, json: String? = nil, bearer: String? = nil, status: Int = 200,
            answer: String = "{}", headers: [HARLog.Field] = []
        ) -> Int {
            let id = send(method, path, at: seconds, json: json, bearer: bearer)
            self.answer(id, status, json: answer, headers: headers, at: seconds + 0.05)
            return id
        }

        /// Every event handed over is judged and every trace due written.
        func settle() { recorder.currentJudge?.settle() }
    }

    /// A fresh recorder watching the suite's rules from a fresh place, the breaks it tells and
    /// the traffic to hand it.
    struct Watching {
        let place: Place
        let recorder = URLSessionRecorder()
        let told = Told()
        let watch: URLSessionRecorder.Watch
        let traffic: Traffic

        init(_ settings: URLSessionRecorder.WatchSettings = .init()) throws {
            place = try Place()
            traffic = Traffic(recorder: recorder)
            let told = told
            watch = try recorder.watch(invariantsAt: place.rules, savingTracesIn: place.traces, settings: settings) { told.add($0) }
        }
    }

    static let refresh = "ref-live-7Hq2Lm9Xw4Tb"
    static let access = "acc-live-3Pz8Kd1Vn6Yc"

    // MARK: A broken rule saves its trace

    @Test func aRefreshTokenSpentTwiceSavesOneRedactedTraceNamedByTheInvariant() async throws {
        let watching = try Watching()
        let (place, told, traffic) = (watching.place, watching.told, watching.traffic)
        #expect(watching.watch.judged == ["refresh-token-spent-once", "no-retry-before-retry-after", "one-feed-at-a-time"])
        traffic.exchange("GET", "/feed", at: 0, bearer: Self.access, status: 401)
        traffic.exchange("GET", "/notifications", at: 0.1, bearer: Self.access)
        let body = #"{"refresh_token":"\#(Self.refresh)"}"#
        let tokens = #"{"data":{"access_token":"acc-live-new-5Tg8","refresh_token":"ref-live-new-9Kd3"}}"#
        traffic.exchange("POST", "/auth/refresh", at: 0.2, json: body, answer: tokens)
        traffic.settle()
        #expect(place.saved == [], "nothing breaks while the refresh token is spent once")
        traffic.exchange("POST", "/auth/refresh", at: 0.3, json: body, status: 401, answer: #"{"error_code":"TOKEN_INVALID"}"#)
        traffic.settle()
        await told.wait(for: 1)

        let saved = place.saved
        #expect(saved.count == 1)
        let name = try #require(saved.first)
        #expect(name.hasPrefix("refresh-token-spent-once-") && name.hasSuffix("Z.har"), "\(name)")
        let log = try place.read(name)
        #expect(
            log.entries.map { URLComponents(string: $0.request.url)?.path } == [
                "/feed", "/notifications", "/auth/refresh", "/auth/refresh",
            ])
        #expect(log.entries.map { $0.response?.status } == [401, 200, 200, 401])
        let text = try place.text(name)
        #expect(!text.contains(Self.refresh) && !text.contains(Self.access), "the trace is redacted")
        // The comment names the rule, says what happened with the trace's own numbers, and lists what is not judged.
        let comment = try #require(JSONValue.parse(Data(text.utf8))?["log"]?["comment"]?.stringValue)
        #expect(comment.contains("the invariant 'refresh-token-spent-once' broke: 2 requests carry the same JSON member refresh_token"))
        #expect(comment.contains("#3, #4"), "\(comment)")
        #expect(comment.contains("A refresh token is sent once."))
        #expect(comment.contains("Not judged from traffic: blocked-alert-once (alertAtMost counts the alerts"), "\(comment)")
        #expect(!comment.contains(Self.refresh))

        let broken = try #require(told.all.first)
        #expect(broken.invariant == "refresh-token-spent-once")
        #expect(broken.description == "A refresh token is sent once.")
        #expect(broken.requests.map(\.entry) == [2, 3])
        #expect(broken.requests.map(\.status) == [200, 401])
        #expect(broken.file?.lastPathComponent == name)
        #expect(broken.message.contains("redacted-token-") && !broken.message.contains(Self.refresh), "\(broken.message)")
    }

    @Test func nothingIsWrittenWhileNoRuleBreaks() async throws {
        let watching = try Watching()
        let (place, told, traffic) = (watching.place, watching.told, watching.traffic)
        var token = Self.refresh
        for round in 0..<20 {
            let second = Double(round) * 2
            traffic.exchange("GET", "/feed", at: second, bearer: Self.access)
            let next = "ref-live-\(round)-Q8w2Ze5R"
            traffic.exchange(
                "POST", "/auth/refresh", at: second + 0.5, json: #"{"refresh_token":"\#(token)"}"#,
                answer: #"{"data":{"refresh_token":"\#(next)"}}"#)
            token = next
        }
        traffic.settle()
        await MainActor.run {}
        #expect(place.saved == [])
        #expect(told.all.isEmpty)
    }

    @Test func aRuleThatKeepsBreakingWritesOneTracePerWatchAndTheFolderKeepsTheNewest() async throws {
        let place = try Place()
        let recorder = URLSessionRecorder()
        let told = Told()
        for watchNumber in 0..<3 {
            try recorder.watch(invariantsAt: place.rules, savingTracesIn: place.traces, settings: .init(tracesKept: 2)) { told.add($0) }
            let traffic = Traffic(recorder: recorder)
            for round in 0..<10 {
                traffic.exchange("POST", "/auth/refresh", at: Double(round), json: #"{"refresh_token":"ref-same-\#(watchNumber)-Lq73Xw"}"#)
            }
            traffic.settle()
            await told.wait(for: watchNumber + 1)
            #expect(place.saved.count == min(watchNumber + 1, 2), "\(place.saved)")
        }
        #expect(told.all.map(\.invariant) == Array(repeating: "refresh-token-spent-once", count: 3))
        // The first watch's trace went to make room; a file the recorder did not write stays.
        let first = try #require(told.all.first?.file?.lastPathComponent)
        #expect(!place.saved.contains(first))
        try Data("mine".utf8).write(to: place.traces.appendingPathComponent("notes-20200101T000000.har"))
        try recorder.watch(invariantsAt: place.rules, savingTracesIn: place.traces, settings: .init(tracesKept: 1)) { told.add($0) }
        let traffic = Traffic(recorder: recorder)
        traffic.exchange("POST", "/auth/refresh", at: 0, json: #"{"refresh_token":"ref-again-Lq73Xw"}"#)
        traffic.exchange("POST", "/auth/refresh", at: 1, json: #"{"refresh_token":"ref-again-Lq73Xw"}"#)
        traffic.settle()
        await told.wait(for: 4)
        #expect(place.saved.count == 2 && place.saved.contains("notes-20200101T000000.har"), "\(place.saved)")
    }

    // MARK: Wall-clock rules

    @Test func retryAfterIsJudgedOnTheDevicesClock() async throws {
        let watching = try Watching()
        let (place, told, traffic) = (watching.place, watching.told, watching.traffic)
        traffic.exchange("POST", "/auth/password/forgot", at: 0, status: 429, headers: [HARLog.Field("Retry-After", "60")])
        traffic.exchange("POST", "/auth/password/forgot", at: 61)  // the wait was over
        // An HTTP-date: 30 s after the answer, read against the device's clock.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let until = formatter.string(from: traffic.start.addingTimeInterval(100.05 + 30))
        traffic.exchange("GET", "/feed", at: 100, status: 503, headers: [HARLog.Field("Retry-After", until)])
        traffic.exchange("GET", "/feed", at: 131)
        traffic.settle()
        await MainActor.run {}
        #expect(place.saved == [], "both waits were respected")
        traffic.exchange("GET", "/feed", at: 140, status: 429, headers: [HARLog.Field("Retry-After", "120")])
        traffic.exchange("GET", "/feed", at: 150)
        traffic.settle()
        await told.wait(for: 1)
        #expect(told.all.map(\.invariant) == ["no-retry-before-retry-after"])
        #expect(told.all.first?.message.contains("before the wait the answer to #5 asked for (Retry-After: 120)") == true, "\(told.all)")
    }

    @Test func aTraceWaitsForTheRequestsInvolvedToFinish() async throws {
        let watching = try Watching()
        let (place, told, traffic) = (watching.place, watching.told, watching.traffic)
        let first = traffic.send("GET", "/feed", at: 0)
        let second = traffic.send("GET", "/feed", at: 0.01)
        traffic.settle()
        #expect(place.saved == [], "the two feeds are still away")
        traffic.answer(first, 200, at: 0.2)
        traffic.settle()
        #expect(place.saved == [])
        traffic.answer(second, 200, at: 0.3)
        traffic.settle()
        await told.wait(for: 1)
        #expect(told.all.map(\.invariant) == ["one-feed-at-a-time"])
        let log = try place.read(try #require(place.saved.first))
        #expect(log.entries.map { $0.response?.status } == [200, 200], "both with their answers")
    }

    // MARK: Bounds and the rule file

    @Test func onlyTheLastExchangesAreJudgedAndSaved() async throws {
        let watching = try Watching(.init(judgedExchanges: 3))
        let (place, told, traffic) = (watching.place, watching.told, watching.traffic)
        let body = #"{"refresh_token":"ref-window-Lq73Xw"}"#
        traffic.exchange("POST", "/auth/refresh", at: 0, json: body)
        for second in 1...3 { traffic.exchange("GET", "/items/\(second)", at: Double(second)) }
        traffic.exchange("POST", "/auth/refresh", at: 4, json: body)
        traffic.settle()
        await MainActor.run {}
        #expect(place.saved == [], "the first refresh left the window: a window does not see that far back")
        traffic.exchange("POST", "/auth/refresh", at: 5, json: body)
        traffic.settle()
        await told.wait(for: 1)
        let log = try place.read(try #require(place.saved.first))
        #expect(log.entries.map { URLComponents(string: $0.request.url)?.path } == ["/items/3", "/auth/refresh", "/auth/refresh"])
    }

    @Test func aBadRuleFileThrowsNamingTheFileLineAndKey() throws {
        let place = try Place(
            rules: "{\n  \"invariants\": [\n    { \"id\": \"x\", \"description\": \"d\", \"chek\": \"maxInFlight\" }\n  ]\n}\n")
        #expect {
            try URLSessionRecorder().watch(invariantsAt: place.rules, savingTracesIn: place.traces)
        } throws: { error in
            let text = "\(error)"
            return text.contains("invariants.json:3:") && text.contains("'chek'") && text.contains("did you mean 'check'")
        }
        #expect(!FileManager.default.fileExists(atPath: place.traces.path), "nothing made for a watch that did not start")
        #expect(throws: LoadFailure.self) {
            try URLSessionRecorder().watch(invariantsAt: place.root.appendingPathComponent("missing.json"), savingTracesIn: place.traces)
        }
    }

    @Test func rulesThatNeedTheAppAreListedAsNotJudged() throws {
        let place = try Place()
        let watch = try URLSessionRecorder().watch(invariantsAt: place.rules, savingTracesIn: place.traces)
        #expect(watch.notJudged.map(\.id) == ["blocked-alert-once"])
        #expect(watch.notJudged.first?.reason.contains("alerts") == true)
        // SessionKit's own file: the rules about alerts, actions and states need the app.
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/invariants.json")
        let sessionKit = try URLSessionRecorder().watch(invariantsAt: corpus, savingTracesIn: place.traces)
        #expect(
            sessionKit.notJudged.map(\.id) == [
                "rate-limit-error-carries-retry-after", "account-blocked-alert-once-per-blocked-session",
                "request-repeated-only-in-its-own-session", "auth-state-moves-along-the-state-machine",
            ])
        #expect(sessionKit.judged.count == 9)
    }

    @Test func theFileNameIsTheInvariantAndTheTime() {
        #expect(LiveTrafficJudge.safeName("refresh/token spent") == "refresh-token-spent")
        #expect(LiveTrafficJudge.safeName("..") == "invariant..")
        #expect(LiveTrafficJudge.stamp(Date(timeIntervalSince1970: 1_700_000_000)) == "20231114T221320Z")
        #expect(LiveTrafficJudge.writtenName("a-b-20231114T221320Z.har")?.stamp == "20231114T221320Z")
        #expect(LiveTrafficJudge.writtenName("a-20231114T221320Z-3.har")?.copy == 3)
        #expect(LiveTrafficJudge.writtenName("a-20231114T221320Z.har")?.copy == 1)
        #expect(LiveTrafficJudge.writtenName("notes-20200101T000000.har") == nil)
        #expect(LiveTrafficJudge.writtenName("20231114T221320Z.har") == nil)
        #expect(LiveTrafficJudge.writtenName("a-20231114T221320Z.json") == nil)
    }
}
