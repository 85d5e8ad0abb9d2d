import Foundation
import ScenarioEngine
import ScenarioTraces
import Testing

/// The importer's mapping rules, with a driver description written here (no SessionKit).
@Suite struct TraceImporterTests {
    static let spec = TraceImportSpec(requestAction: "call", appRequests: [.init("POST", "/token")])
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)

    static func entry(_ at: Double, _ method: String, _ url: String, status: Int?, time: Double = 10, mime: String? = nil) -> HARLog.Entry {
        HARLog.Entry(
            started: origin.addingTimeInterval(at), time: time, request: HARLog.Request(method: method, url: url),
            response: status.map { HARLog.Response(status: $0, body: Data(#"{"n":\#($0)}"#.utf8), mimeType: mime) })
    }

    static func scenario(_ entries: [HARLog.Entry], _ options: TraceImporter.Options = .init()) throws -> JSONValue {
        try TraceImporter(spec: spec, options: options).makeScenario(from: HARLog(entries: entries), file: "t.har").scenario
    }

    @Test func theSameRouteAnsweringDifferentlyBecomesOrderedExchanges() throws {
        let scenario = try Self.scenario([
            Self.entry(0, "GET", "https://a/x", status: 503),
            Self.entry(1, "GET", "https://a/x", status: 503),
            Self.entry(2, "GET", "https://a/x", status: 200),
        ])
        let exchanges = try #require(scenario["exchanges"]?.arrayValue)
        // The refused call's last success comes again last, optional, to any credential, any
        // number of times: for a run whose calls take their turns in another order, or a fix.
        #expect(exchanges.map { $0["id"]?.stringValue } == ["get-x-503", "get-x-200", "get-x-any"])
        #expect(exchanges[0]["times"] == 2)
        #expect(exchanges[1]["after"] == "get-x-503")
        #expect(
            exchanges[2] == [
                "id": "get-x-any", "request": ["method": "GET", "path": "/x"], "response": exchanges[1]["response"] ?? nil,
                "times": "unlimited", "optional": true,
            ])
        // A second apart each: three calls with an advance between each.
        #expect(scenario["steps"]?.arrayValue?.compactMap { $0["advance"]?.stringValue } == ["990ms", "990ms"])
    }

    @Test func gapsBecomeAdvanceStepsAndTimesBecomeLatency() throws {
        let scenario = try Self.scenario([
            Self.entry(0, "POST", "https://a/reset", status: 429, time: 40),
            Self.entry(3600.04, "POST", "https://a/reset", status: 200, time: 25),
        ])
        let steps = try #require(scenario["steps"]?.arrayValue)
        #expect(steps[2] == ["advance": "1h"])
        #expect(scenario["exchanges"]?.arrayValue?.map { $0["latency"] } == ["40ms", "25ms", nil])
        #expect(scenario["given"]?["clock"]?["start"] == "2026-01-01T00:00:00.000Z")
    }

    @Test func overlappingRequestsBecomeOneHeldParallelStepAndAppRequestsNoStep() throws {
        // Listed out of order, as some exporters do.
        let scenario = try Self.scenario([
            Self.entry(0.002, "GET", "https://a/feed", status: 403, time: 100),
            Self.entry(0.5, "POST", "https://a/token", status: 200),
            Self.entry(0, "GET", "https://a/feed", status: 403, time: 100),
            Self.entry(0.001, "GET", "https://a/feed", status: 403, time: 100),
        ])
        let steps = try #require(scenario["steps"]?.arrayValue)
        // The step, then the check that its three requests were sent (a step that sends nothing fails there).
        #expect(
            steps == [
                ["do": "call", "with": ["path": "/feed"], "parallel": 3], ["check": ["requests": ["counts": ["get-feed-403": 3]]]],
            ])
        let feed = try #require(scenario["exchanges"]?.arrayValue?.first)
        #expect(feed["release"] == ["whenPending": 3])
        #expect(scenario["exchanges"]?.arrayValue?.count == 2)
        // The app's own request is optional (a fixed stack may send it fewer times): it is not
        // counted, and then neither is the total.
        #expect(scenario["exchanges"]?.arrayValue?[1]["optional"] == true)
        #expect(scenario["expect"] == ["requests": ["counts": ["get-feed-403": 3]]])
    }

    @Test func otherHostsAndStaticAssetsAreDroppedUnlessKept() throws {
        let entries = [
            Self.entry(0, "GET", "https://api/feed", status: 200),
            Self.entry(1, "GET", "https://cdn/app.js", status: 200),
            Self.entry(2, "GET", "https://api/logo", status: 200, mime: "image/png"),
            Self.entry(3, "GET", "https://other/feed", status: 200),
        ]
        let filtered = try Self.scenario(entries, .init(host: "api"))
        #expect(filtered["exchanges"]?.arrayValue?.count == 1)
        let all = try Self.scenario(entries, .init(keepStaticAssets: true))
        // Hosts are not significant in scenarios: both /feed answers are one exchange, twice.
        #expect(all["exchanges"]?.arrayValue?.count == 3)
        #expect(all["expect"]?["requests"]?["total"] == 4)
        #expect(throws: TraceImporter.Failure.self) { try Self.scenario(entries, .init(host: "nowhere")) }
    }

    @Test func aDriverWithoutADescriptionCannotImportAndIsToldWhatToAdd() throws {
        let importer = TraceImporter(spec: .unsupported)
        let failure = #expect(throws: TraceImporter.Failure.self) {
            try importer.makeScenario(from: HARLog(entries: [Self.entry(0, "GET", "https://a/x", status: 200)]), file: "t.har")
        }
        #expect(failure?.description.contains("var traceImport: TraceImportSpec { TraceImportSpec(requestAction: ") == true)
        #expect(failure?.description.components(separatedBy: "error:").count == 2, "one 'error:', after file:line:column")
        #expect(failure?.description.hasPrefix("t.har:1:1: error: ") == true)
    }

    /// A trace that starts signed in (a bearer token no answer handed out).
    static func signedIn(authorization: String = "Bearer stored-token-1") -> HARLog {
        var request = HARLog.Request(method: "GET", url: "https://a/feed")
        request.headers = [HARLog.Field("Authorization", authorization)]
        let entry = HARLog.Entry(
            started: origin, time: 10, request: request, response: HARLog.Response(status: 200, body: Data(#"{"n":1}"#.utf8)))
        return HARLog(entries: [entry])
    }

    /// Import without a way to store the session would write a draft that starts signed out and
    /// cannot pass: it fails and says to add `given`.
    @Test func aSignedInTraceNeedsGivenAndSaysSo() throws {
        let failure = #expect(throws: TraceImporter.Failure.self) {
            try TraceImporter(spec: Self.spec).makeScenario(from: Self.signedIn(), file: "t.har")
        }
        #expect(failure?.description.contains("given: { credentials in") == true, "\(failure?.description ?? "")")
        #expect(failure?.description.contains("bearer token it never obtained") == true)
    }

    @Test func givenGetsTheStoredCredentialsByName() throws {
        let spec = TraceImportSpec(
            requestAction: "call",
            given: { credentials in
                [
                    "session": [
                        "accessToken": .string(credentials.accessToken ?? "none"),
                        "refresh": credentials.refreshToken.map { .string($0) } ?? nil,
                    ]
                ]
            })
        let scenario = try TraceImporter(spec: spec).makeScenario(from: Self.signedIn(), file: "t.har").scenario
        #expect(scenario["given"]?["session"]?["accessToken"] == "stored-token-1")
        #expect(scenario["given"]?["session"]?["refresh"] == .null)
    }
}

/// Shapes of real exporters' captures that once imported wrong.
@Suite struct ExporterShapeImportTests {
    private func imported(_ entries: [HARLog.Entry]) throws -> (scenario: JSONValue, summary: TraceImporter.Summary) {
        let made = try TraceImporter(spec: TraceImporterTests.spec).makeScenario(from: HARLog(entries: entries), file: "t.har")
        return (made.scenario, made.summary)
    }

    /// A browser's CORS preflights and a proxy's CONNECT tunnels are not the app's requests.
    @Test func preflightsAndTunnelsAreLeftOutAndCounted() throws {
        var preflight = TraceImporterTests.entry(0, "OPTIONS", "https://a/feed", status: 204)
        preflight.request.headers = [HARLog.Field("Access-Control-Request-Method", "GET")]
        var answeredPreflight = TraceImporterTests.entry(0.2, "OPTIONS", "https://a/me", status: 204)
        answeredPreflight.response?.headers = [HARLog.Field("Access-Control-Allow-Methods", "GET")]
        let (scenario, summary) = try imported([
            TraceImporterTests.entry(0, "CONNECT", "a:443", status: 200), preflight,
            TraceImporterTests.entry(0.1, "GET", "https://a/feed", status: 200), answeredPreflight,
            TraceImporterTests.entry(0.3, "GET", "https://a/me", status: 200),
        ])
        #expect(scenario["exchanges"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["get-feed-200", "get-me-200"])
        #expect(summary.droppedTunnels == 1)
        #expect(summary.droppedPreflights == 2)
        #expect(summary.notes.contains("2 CORS preflights of a browser"), "\(summary.notes)")
        #expect(summary.notes.contains("1 proxy tunnels (CONNECT)"), "\(summary.notes)")
    }

    /// Repeated answer headers are joined as HTTP allows; a second Set-Cookie or query value cannot be, and is counted.
    @Test func repeatedNamesAreJoinedOrCounted() throws {
        var entry = TraceImporterTests.entry(0, "GET", "https://a/search?id=1&id=2", status: 200)
        entry.response?.headers = [
            HARLog.Field("Cache-Control", "no-store"), HARLog.Field("Cache-Control", "private"),
            HARLog.Field("Set-Cookie", "theme=dark"), HARLog.Field("Set-Cookie", "lang=en"),
        ]
        let (scenario, summary) = try imported([entry])
        let headers = scenario["exchanges"]?.arrayValue?.first?["response"]?["headers"]
        #expect(headers?["Cache-Control"] == "no-store, private", "\(String(describing: headers))")
        #expect(headers?["Set-Cookie"] == "theme=dark")
        #expect(summary.repeatedNamesKeptOnce == 2, "one Set-Cookie and one query value")
    }

    /// Only a bearer credential is the stored access token: a `Basic` pair or an `api_key` is not.
    @Test func onlyABearerCredentialIsTheStoredAccessToken() throws {
        let spec = TraceImportSpec(
            requestAction: "call", given: { credentials in ["accessToken": credentials.accessToken.map { .string($0) } ?? nil] })
        for (authorization, stored) in [("Bearer stored-token-1", JSONValue.string("stored-token-1")), ("api_key mob-82856bdd", .null)] {
            let scenario = try TraceImporter(spec: spec).makeScenario(
                from: TraceImporterTests.signedIn(authorization: authorization), file: "t.har"
            ).scenario
            #expect(scenario["given"]?["accessToken"] == stored, "\(authorization)")
        }
    }

    /// Proxies show a host with its port: `--host` takes it so, and a `--host` that leaves
    /// nothing names the hosts the trace has.
    @Test func aHostWithItsPortSelectsAndAMissNamesTheHosts() throws {
        let entries = [TraceImporterTests.entry(0, "GET", "http://localhost:18911/feed", status: 200)]
        let kept = try TraceImporterTests.scenario(entries, .init(host: "localhost:18911"))
        #expect(kept["exchanges"]?.arrayValue?.count == 1)
        let failure = #expect(throws: TraceImporter.Failure.self) { try TraceImporterTests.scenario(entries, .init(host: "api")) }
        #expect(
            failure?.description.contains("check --host against the hosts in the trace: localhost:18911") == true,
            "\(failure?.description ?? "")")
    }

    /// A 64-bit id would round as a JSON number: such an answer keeps its exact text.
    @Test func anAnswerWithA64BitIdKeepsItsText() throws {
        var big = TraceImporterTests.entry(0, "GET", "https://a/feed", status: 200)
        big.response?.body = Data(#"{"posts":[{"id":6647889604622514932,"author":"u2"}]}"#.utf8)
        var small = TraceImporterTests.entry(1, "GET", "https://a/me", status: 200)
        small.response?.body = Data(#"{"id":42,"ref":"66478896046225149321"}"#.utf8)
        let (scenario, summary) = try imported([big, small])
        let responses = scenario["exchanges"]?.arrayValue?.map { $0["response"] }
        #expect(responses?.first??["text"] == #"{"posts":[{"id":6647889604622514932,"author":"u2"}]}"#)
        #expect(responses?.last??["json"] == ["id": 42, "ref": "66478896046225149321"])
        #expect(summary.bigIntegerBodiesAsText == 1)
    }

    /// ZAP writes a form as `params` beside an empty `text`.
    @Test func aFormWrittenAsParamsBesideEmptyTextKeepsItsBody() throws {
        let har = #"""
            {"log":{"version":"1.2","creator":{"name":"ZAP","version":"2.15.0"},"entries":[{"startedDateTime":"2026-03-02T11:00:00.000Z","time":50,
            "request":{"method":"POST","url":"https://a/auth/login","headers":[],"postData":{"mimeType":"application/x-www-form-urlencoded",
            "params":[{"name":"email","value":"ana@example.com"},{"name":"password","value":"Hunter2 secret"}],"text":""}},
            "response":{"status":401,"headers":[],"content":{"mimeType":"application/json","text":"{}"}}}]}}
            """#
        let log = try HARReader(file: "zap.har").read(Data(har.utf8))
        #expect(log.entries.first?.request.body == "email=ana%40example.com&password=Hunter2%20secret")
    }
}
