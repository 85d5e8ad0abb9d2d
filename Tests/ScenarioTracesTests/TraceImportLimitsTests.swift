import Foundation
import ScenarioEngine
import ScenarioTraces
import Testing

/// Import stands behind what it writes: every draft loads with the real loader, what a scenario
/// cannot hold is clamped, split or left out and counted, and actions are claimed only when
/// they send the captured requests.
@Suite struct TraceImportLimitsTests {
    static let origin = TraceImporterTests.origin
    static let actions = [
        ActionSpec("start", "app start"),
        ActionSpec(
            "call", "any request",
            arguments: [
                ArgumentSpec("method", .string, "method"), ArgumentSpec("path", .string, required: true, "path"),
                ArgumentSpec("query", .object, "query"), ArgumentSpec("json", .any, "body"),
            ]),
        ActionSpec("signIn", "sign in", arguments: [ArgumentSpec("email", .string, required: true, "email")]),
    ]
    static let spec = TraceImportSpec(
        requestAction: "call", appRequests: [.init("GET", "/health")],
        actionRules: [.init(.init("POST", "/login"), action: "signIn", arguments: ["email": "email"])], startAction: "start",
        startRequests: [.init("GET", "/health"), .init("GET", "/me")])

    static func entry(_ at: Double, _ url: String, method: String = "GET", status: Int? = 200, body: String? = nil, time: Double = 10)
        -> HARLog.Entry
    {
        HARLog.Entry(
            started: origin.addingTimeInterval(at), time: time, request: HARLog.Request(method: method, url: url, body: body),
            response: status.map { HARLog.Response(status: $0, body: Data(#"{"ok":true}"#.utf8)) })
    }

    static func imported(_ entries: [HARLog.Entry], creator: String = "") throws(TraceImporter.Failure) -> (
        scenario: JSONValue, summary: TraceImporter.Summary
    ) {
        let result = try TraceImporter(spec: spec).importScenario(
            from: HARLog(creator: creator, entries: entries), file: "t.har", actions: actions, givenKeys: [])
        return (JSONValue.parse(Data(result.text.utf8)) ?? .null, result.summary)
    }

    static func actionsOf(_ scenario: JSONValue) -> [String] {
        (scenario["steps"]?.arrayValue ?? []).compactMap { $0["do"]?.stringValue ?? $0["group"]?.arrayValue?.first?["do"]?.stringValue }
    }

    @Test func theStartActionNeedsTheFirstRequestItSends() throws {
        // `GET /me` first, without the health check the start action opens with: plain requests.
        let midSession = try Self.imported([Self.entry(0, "https://a/me"), Self.entry(0.001, "https://a/feed")])
        #expect(Self.actionsOf(midSession.scenario) == ["call"])
        let started = try Self.imported([Self.entry(0, "https://a/health"), Self.entry(0.02, "https://a/me")])
        #expect(Self.actionsOf(started.scenario) == ["start"])
    }

    @Test func anActionWhoseArgumentsAreMissingIsAPlainRequest() throws {
        let withEmail = try Self.imported([Self.entry(0, "https://a/login", method: "POST", body: #"{"email":"a@b.c"}"#)])
        #expect(Self.actionsOf(withEmail.scenario) == ["signIn"])
        // No email, or a form body: the action would not send this request.
        for body in [#"{"name":"x"}"#, "email=a%40b.c"] {
            let plain = try Self.imported([Self.entry(0, "https://a/login", method: "POST", body: body)])
            #expect(Self.actionsOf(plain.scenario) == ["call"])
            #expect(plain.summary.plainInsteadOfAction == 1)
        }
        // The request action sends JSON only: the form's exchange cannot ask for the form.
        let form = try Self.imported([Self.entry(0, "https://a/login", method: "POST", body: "email=a%40b.c")])
        #expect(form.scenario["exchanges"]?.arrayValue?.first?["request"] == ["method": "POST", "path": "/login"])
        #expect(form.summary.bodiesTheStepCannotSend == 1)
        let json = try Self.imported([Self.entry(0, "https://a/login", method: "POST", body: #"{"name":"x"}"#)])
        #expect(json.scenario["exchanges"]?.arrayValue?.first?["request"]?["json"] == ["name": "x"])
        #expect(json.summary.bodiesTheStepCannotSend == 0)
    }

    @Test func everyStepIsFollowedByACheckThatItsRequestsWereSent() throws {
        let scenario = try Self.imported([Self.entry(0, "https://a/x"), Self.entry(2, "https://a/x")]).scenario
        let checks = (scenario["steps"]?.arrayValue ?? []).compactMap { $0["check"]?["requests"]?["counts"] }
        #expect(checks == [["get-x-200": 1], ["get-x-200": 2]])
    }

    @Test func aFollowedRedirectIsNeitherCountedNorInTheTotal() throws {
        var moved = Self.entry(0, "https://a/old", status: 302, time: 5)
        moved.response?.headers = [HARLog.Field("Location", "/new")]
        let scenario = try Self.imported([moved, Self.entry(0.01, "https://a/new")]).scenario
        let redirect = scenario["exchanges"]?.arrayValue?.last
        #expect(redirect?["optional"] == true)
        #expect(scenario["expect"] == ["requests": ["counts": ["get-old-302": 1]]])
    }

    @Test func moreOverlappingRequestsThanAStepHoldsAreSplit() throws {
        let entries = (0..<1_001).map { Self.entry(Double($0) * 0.000_001, "https://a/feed", time: 1_000) }
        let (scenario, summary) = try Self.imported(entries)
        let parallels = (scenario["steps"]?.arrayValue ?? []).compactMap { $0["parallel"]?.intValue }
        #expect(parallels == [1_000])
        #expect(summary.splitGroups == 1)
        #expect(summary.steps == 4)  // 1,000 in parallel, its check, the last one, its check
    }

    @Test func centuriesBetweenRequestsAreShortenedToADay() throws {
        let far = 300 * 365.25 * 86_400.0
        let (scenario, summary) = try Self.imported([Self.entry(0, "https://a/x"), Self.entry(far, "https://a/y")])
        #expect((scenario["steps"]?.arrayValue ?? []).compactMap { $0["advance"]?.stringValue } == ["24h"])
        #expect(summary.clampedGaps == 1)
    }

    @Test func urlsNoRequestCanHaveAreLeftOutAndCounted() throws {
        let (scenario, summary) = try Self.imported([
            Self.entry(0, "relative/path"), Self.entry(0.1, "ftp://a/x"), Self.entry(0.2, "https://a/%3Fodd"), Self.entry(0.3, "https://a"),
        ])
        #expect(summary.droppedUnusable == 2)
        // A `?` only percent-encoded in the path stays encoded: a scenario path cannot hold it.
        #expect(scenario["exchanges"]?.arrayValue?.map { $0["request"]?["path"] } == ["/%3Fodd", "/"])
    }

    @Test func nothingLeftIsOneErrorWithAPlaceAndWhatToDo() throws {
        let failure = #expect(throws: TraceImporter.Failure.self) { try Self.imported([Self.entry(0, "https://a/x.png")]) }
        let text = failure?.description ?? ""
        #expect(text.hasPrefix("t.har:1:1: error: no entries left to import (left out: 1 static assets"), "\(text)")
        #expect(text.contains("(at $.log.entries)"))
        #expect(text.components(separatedBy: "error:").count == 2)
    }

    @Test func bodiesTooDeepForAScenarioAreTextOrAClearFailure() throws {
        let deep = String(repeating: "[", count: 506) + String(repeating: "]", count: 506)
        var answer = Self.entry(0, "https://a/x")
        answer.response?.body = Data(deep.utf8)
        let (scenario, summary) = try Self.imported([answer])
        #expect(scenario["exchanges"]?.arrayValue?.first?["response"]?["text"] == .string(deep))
        #expect(summary.deepBodiesAsText == 1)
        // A step's JSON argument cannot be text: the entry is named, with what to do.
        var sent = Self.entry(0, "https://a/x", method: "POST", body: deep)
        sent.line = 7
        sent.column = 5
        let failure = #expect(throws: TraceImporter.Failure.self) { try Self.imported([sent]) }
        #expect(
            failure?.description.hasPrefix("t.har:7:5: error: the request body nests 506 levels deep") == true,
            "\(failure?.description ?? "")")
        #expect(failure?.description.contains("(at $.log.entries[0].request.postData.text)") == true)
        // Deeper than any file may nest is still JSON, not a body to leave out.
        let deeper = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let past = #expect(throws: TraceImporter.Failure.self) {
            try Self.imported([Self.entry(0, "https://a/x", method: "POST", body: deeper)])
        }
        #expect(past?.description.contains("nests more than 512 levels deep") == true, "\(past?.description ?? "")")
        // Cut short by the capture, it is no JSON: a body the step cannot send, not a failure.
        let cut = try Self.imported([Self.entry(0, "https://a/x", method: "POST", body: String(deeper.prefix(700)))])
        #expect(cut.summary.bodiesTheStepCannotSend == 1)
    }

    @Test func browserPageLoadsAndFaviconsAreLeftOutAndCounted() throws {
        var page = Self.entry(0, "https://a/")
        page.response?.mimeType = "text/html"
        page.request.headers = [HARLog.Field("Accept", "text/html,application/xhtml+xml")]
        var typed = Self.entry(0.1, "https://a/app")
        typed.resourceType = "document"
        let (scenario, summary) = try Self.imported([page, typed, Self.entry(0.2, "https://a/favicon.ico"), Self.entry(1, "https://a/api")])
        #expect(summary.droppedDocuments == 2)
        #expect(summary.droppedAssets == 1)
        #expect(scenario["exchanges"]?.arrayValue?.count == 1)
    }

    /// Written to a file a piece at a time, the draft is the text the in-memory import gives
    /// and the document the tree import gives; a draft that fails leaves nothing, not even a
    /// partial file beside where it would have gone.
    @Test func aDraftWrittenToAFileIsTheSameTextAndAFailureLeavesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let entries = [
            Self.entry(0, "https://a/health"), Self.entry(0.02, "https://a/me"), Self.entry(1, "https://a/feed?page=2"),
            Self.entry(1.001, "https://a/feed?page=3"), Self.entry(5, "https://a/login", method: "POST", body: #"{"email":"a@b.c"}"#),
        ]
        let log = HARLog(entries: entries)
        let importer = TraceImporter(spec: Self.spec)
        let path = folder.appendingPathComponent("out/s.json").path
        let summary = try importer.importScenario(from: log, file: "t.har", actions: Self.actions, givenKeys: [], to: path)
        let text = try importer.importScenario(from: log, file: "t.har", actions: Self.actions, givenKeys: [])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text.text)
        #expect(summary == text.summary)
        #expect(JSONValue.parse(Data(text.text.utf8)) == (try importer.makeScenario(from: log, file: "t.har").scenario))
        #expect([summary.steps, summary.exchanges] == [8, 5] as [Int])

        let deep = String(repeating: "[", count: 506) + String(repeating: "]", count: 506)
        let failing = HARLog(entries: entries + [Self.entry(9, "https://a/x", method: "POST", body: deep)])
        let elsewhere = folder.appendingPathComponent("out/failed.json").path
        #expect(throws: TraceImporter.Failure.self) {
            _ = try importer.importScenario(from: failing, file: "t.har", actions: Self.actions, givenKeys: [], to: elsewhere)
        }
        // Written whole, then rejected by the loader (a driver without the actions its traceImport
        // names, so the driver's mistake): not kept either.
        let rejected = #expect(throws: TraceImporter.Failure.self) {
            _ = try importer.importScenario(from: log, file: "t.har", actions: [], givenKeys: [], to: elsewhere)
        }
        let driversMistake = "the driver's traceImport gives a scenario its own declarations refuse: unknown action 'start'"
        #expect(rejected?.description.contains(driversMistake + " (at $.steps[0].do of the scenario)") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path) == ["s.json"])
    }

    /// The writer gives what `prettyText` gives, member by member and element by element.
    @Test func theObjectWriterWritesWhatPrettyTextWrites() {
        let document: JSONObject = [
            "name": "n \"quoted\"", "empty": [], "object": [:], "list": [1, ["a": [true, nil]], "x"], "last": ["k": [2.5]],
        ]
        var text = ""
        var writer = PrettyObjectWriter { text += String(decoding: $0, as: UTF8.self) }
        for member in document {
            if case .array(let elements) = member.value {
                writer.beginArray(member.key)
                for element in elements { writer.element(element) }
                writer.endArray()
            } else {
                writer.member(member.key, member.value)
            }
        }
        writer.end()
        #expect(text == JSONValue.object(document).prettyText)
        var empty = ""
        var emptyWriter = PrettyObjectWriter { empty += String(decoding: $0, as: UTF8.self) }
        emptyWriter.end()
        #expect(empty == JSONValue.object([:]).prettyText)
    }
}
