import Foundation
import HTTPCore
import ScenarioEngine
import ScenarioTestSupport
import Testing

@Suite struct LoaderTests {
    private func load(_ text: String, file: String = "/scenarios/s.json") -> Result<Scenario, LoadFailure> {
        LoaderFixtures.loader.load(data: Data(text.utf8), file: file, id: "s")
    }

    @Test func fullScenarioDecodesToTheModel() throws {
        let scenario = try load(LoaderFixtures.fullScenario).get()
        #expect(scenario.id == "s")
        #expect(scenario.name == "Everything at once")
        #expect(scenario.description == "Uses every key of the format.")
        #expect(scenario.tags == ["blocked-user", "concurrency"])
        #expect(scenario.file == "/scenarios/s.json")
        #expect(scenario.location == ScenarioLocation(file: "/scenarios/s.json", line: 1, column: 1, path: "$"))
        #expect(scenario.given == ["session": ["accessToken": "A1", "refreshToken": "R1"], "connectivity": "online"])
        #expect(scenario.clockStart == Date(timeIntervalSince1970: 1_792_560_480))
        #expect(scenario.timeLimit == .seconds(7200))
        #expect(scenario.relax == Relaxations(unmatchedRequests: true, unusedExchanges: false))

        #expect(scenario.exchanges.map(\.id) == ["feed-403", "exchange-2", "offline", "bytes"])
        let feed = scenario.exchanges[0]
        #expect(feed.request.method == .get)
        #expect(feed.request.path == .exact("/feed"))
        #expect(feed.request.headers == ["authorization": "Bearer A1"])
        #expect(feed.request.query.map { [$0.name, $0.value] } == [["page", "2"]])
        #expect(feed.request.body == nil)
        guard case .response(let response) = feed.reply else {
            Issue.record("expected a response")
            return
        }
        #expect(response.status == .forbidden)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"success":false,"error_code":"USER_BLOCKED"}"#)
        #expect(response.headers == [HTTPFields.Name.contentType: "application/json"])
        #expect(feed.times == 5)
        #expect(feed.release == .whenPending(5))
        #expect(feed.latency == .milliseconds(1500))
        #expect(feed.after == [])
        #expect(!feed.optional)
        #expect(feed.location.line == 12 && feed.location.column == 5 && feed.location.path == "$.exchanges[0]")

        let block = scenario.exchanges[1]
        #expect(block.request.method == .post)
        #expect(block.request.path == .pattern("/users/{id}/block"))
        #expect(block.request.body == .jsonSubset(["reason": "spam"]))
        #expect(block.times == nil)
        #expect(block.after == ["feed-403"])
        #expect(block.optional)
        guard case .response(let textResponse) = block.reply else {
            Issue.record("expected a response")
            return
        }
        #expect(textResponse == HTTPResponse(status: .noContent, headers: ["Content-Type": "text/plain"], body: Data("ok".utf8)))

        let offline = scenario.exchanges[2]
        #expect(offline.request.body == .text("ping"))
        guard case .fault(let code) = offline.reply else {
            Issue.record("expected a fault")
            return
        }
        #expect(code == .notConnectedToInternet)
        #expect(offline.after == ["feed-403", "exchange-2"])
        #expect(offline.release == .atStep("held"))
        guard case .response(let bytes) = scenario.exchanges[3].reply else {
            Issue.record("expected a response")
            return
        }
        #expect(bytes.body == Data([0, 1, 2, 255]))
        #expect(bytes.headers.isEmpty)

        #expect(scenario.steps.count == 8)
        guard case .perform(let bootstrap, 1, nil) = scenario.steps[0].kind else {
            Issue.record("step 0: \(scenario.steps[0].kind)")
            return
        }
        #expect(bootstrap.action == "bootstrap" && bootstrap.arguments == [:])
        #expect(scenario.steps[1].name == "held")
        #expect(scenario.steps[1].location == ScenarioLocation(file: "/scenarios/s.json", line: 26, column: 5, path: "$.steps[1]"))
        guard case .perform(let request, 5, .error("forbidden")) = scenario.steps[1].kind else {
            Issue.record("step 1: \(scenario.steps[1].kind)")
            return
        }
        #expect(request.action == "request" && request.arguments == ["method": "GET", "path": "/feed"])
        guard case .group(let calls, let expects) = scenario.steps[2].kind else {
            Issue.record("step 2: \(scenario.steps[2].kind)")
            return
        }
        #expect(calls.map(\.action) == ["refresh", "login"])
        #expect(calls[1].arguments == ["email": "a@b.c", "password": "pw"])
        #expect(expects == [.ok, .error(["code": "rateLimited", "retryAfter": 120])])
        guard case .start(let background, "bg") = scenario.steps[3].kind else {
            Issue.record("step 3: \(scenario.steps[3].kind)")
            return
        }
        #expect(background.arguments == ["method": "POST", "path": "/x", "body": [1, 2]])
        guard case .advance(let advance) = scenario.steps[4].kind, case .runUntilIdle = scenario.steps[5].kind,
            case .await("bg", .value(["status": 200])) = scenario.steps[6].kind,
            case .check(let check) = scenario.steps[7].kind
        else {
            Issue.record("steps 4-7: \(scenario.steps[4...].map(\.kind))")
            return
        }
        #expect(advance == .seconds(5400))
        #expect(check.state == ["auth": "unauthenticated"])

        let expect = scenario.expect
        #expect(expect.state == ["auth": "unauthenticated", "tokens": ["access": nil]])
        #expect(expect.alerts == [["title": "Account Blocked"]])
        #expect(expect.timeline == ["loading", "authenticated"])
        let requests = try #require(expect.requests)
        #expect(requests.total == 5)
        #expect(requests.counts.map { "\($0.exchange)=\($0.count)" } == ["feed-403=5", "unmatched=0"])
        let log = try #require(requests.log)
        #expect(log.count == 1)
        #expect(log[0].count == 5 && log[0].exchange == "feed-403" && log[0].method == "GET" && log[0].path == "/feed")
        #expect(log[0].headers.map { "\($0.name)=\($0.value ?? "nil")" } == ["Authorization=Bearer A1", "X-Debug=nil"])
        #expect(log[0].json == ["a": 1])
    }

    @Test func defaultsApplyToAMinimalScenario() throws {
        let scenario = try load(#"{"name": "n", "description": "d", "steps": [], "expect": {"requests": {"total": 0}}}"#).get()
        #expect(scenario.tags.isEmpty && scenario.exchanges.isEmpty && scenario.steps.isEmpty)
        #expect(scenario.given == [:])
        #expect(scenario.clockStart == Scenario.defaultClockStart)
        #expect(scenario.timeLimit == Scenario.defaultTimeLimit)
        #expect(scenario.expect.requests?.total == 0)
        #expect(scenario.relax == Relaxations())
    }

    @Test func jsonBodyKeepsAGivenContentType() throws {
        let text = LoaderFixtures.document(
            exchanges:
                #"{ "request": {}, "response": { "status": 200, "headers": { "content-type": "application/problem+json" }, "json": [1] } }"#
        )
        let scenario = try load(text).get()
        guard case .response(let response) = scenario.exchanges[0].reply else {
            Issue.record("expected a response")
            return
        }
        #expect(response.headers.count == 1)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.body == Data("[1]".utf8))
    }

    @Test(arguments: LoaderFixtures.badCases)
    func badSnippetIsReportedPrecisely(_ bad: LoaderFixtures.BadCase) throws {
        guard case .failure(let failure) = load(bad.text) else {
            Issue.record("\(bad.label): loaded without issues")
            return
        }
        let (line, column) = try #require(Self.position(of: bad.at, occurrence: bad.occurrence, in: bad.text))
        #expect(failure.issues.count == bad.issueCount, "\(failure)")
        let issue = try #require(failure.issues.first { $0.message == bad.message }, "\(failure)")
        #expect(issue.location == ScenarioLocation(file: "/scenarios/s.json", line: line, column: column, path: bad.path))
        #expect(issue.hint == bad.hint)
    }

    @Test func everyIssueIsCollectedInOnePass() {
        let text = """
            {
              "name": 3,
              "descripton": "typo",
              "exchanges": [
                { "id": "a", "request": { "method": "GET", "pathPattern": "/x/*/y" }, "response": { "status": 99 } },
                { "id": "a", "request": {}, "fault": "gone", "after": "nobody", "latency": "fast" }
              ],
              "steps": [
                { "do": "refresh", "with": { "force": true } },
                { "advance": 10 },
                { "await": "nothing" }
              ],
              "relax": { "unusedExchanges": "yes" }
            }
            """
        guard case .failure(let failure) = load(text) else {
            Issue.record("loaded without issues")
            return
        }
        let summary = failure.issues.map { "\($0.location.line):\($0.location.column) \($0.location.path)" }
        #expect(
            summary == [
                "2:11 $.name",
                "3:3 $.descripton",
                "5:63 $.exchanges[0].request.pathPattern",
                "5:99 $.exchanges[0].response.status",
                "6:13 $.exchanges[1].id",
                "6:42 $.exchanges[1].fault",
                "6:59 $.exchanges[1].after",
                "6:80 $.exchanges[1].latency",
                "9:34 $.steps[0].with.force",
                "10:18 $.steps[1].advance",
                "11:16 $.steps[2].await",
                "13:33 $.relax.unusedExchanges",
            ], "\(failure)")
        // The misspelt 'descripton' is one issue, not also "missing required key 'description'".
        #expect(failure.issues[1].message == "unknown key 'descripton' in the scenario")
        #expect(failure.issues[1].hint == "did you mean 'description'?")
        #expect(failure.issues[8].hint == "action 'refresh' takes no arguments")
        #expect(failure.description.split(separator: "\n").count == 12)
        #expect(failure.description.hasPrefix("/scenarios/s.json:2:11: error: 'name' must be a string; got 3 (at $.name)\n"))
    }

    /// Files are read up to a bound, exactly: a byte more is refused with the size and the bound.
    @Test func filesAreReadUpToTheirBound() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bytes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("0123456789".utf8).write(to: file)
        #expect(try FileBytes.read(file.path, limit: 10) == Array("0123456789".utf8))
        #expect {
            _ = try FileBytes.read(file.path, limit: 9)
        } throws: { error in
            "\(error)" == "it has 10 bytes, more than the 9 bytes a file may have here"
        }
    }

    @Test func fileBodiesAreReadRelativeToTheScenario() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("bodies"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("hello".utf8).write(to: folder.appendingPathComponent("bodies/hello.txt"))
        let text = LoaderFixtures.document(
            exchanges:
                #"{ "request": {}, "response": { "status": 200, "file": "bodies/hello.txt" } }, { "request": {}, "response": { "status": 200, "file": "bodies/missing.txt" } }"#
        )
        let file = folder.appendingPathComponent("scenario.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        guard case .failure(let failure) = LoaderFixtures.loader.load(contentsOf: file, id: "scenario") else {
            Issue.record("the missing body file was not reported")
            return
        }
        #expect(failure.issues.count == 1)
        #expect(failure.issues[0].location.path == "$.exchanges[1].response.file")
        #expect(failure.issues[0].message == "'file' names a file that does not exist: \(folder.path)/bodies/missing.txt")
        #expect(failure.issues[0].hint == "paths are relative to the scenario file's folder")

        let good = LoaderFixtures.document(
            exchanges: #"{ "request": {}, "response": { "status": 200, "file": "bodies/hello.txt" } }"#)
        try Data(good.utf8).write(to: URL(fileURLWithPath: file))
        let scenario = try LoaderFixtures.loader.load(contentsOf: file, id: "scenario").get()
        guard case .response(let response) = scenario.exchanges[0].reply else {
            Issue.record("expected a response")
            return
        }
        #expect(response.body == Data("hello".utf8))
    }

    @Test func unreadableFileIsOneIssue() {
        guard case .failure(let failure) = LoaderFixtures.loader.load(contentsOf: "/no/such/file.json", id: "x") else {
            Issue.record("loaded a missing file")
            return
        }
        #expect(failure.issues.count == 1)
        #expect(failure.issues[0].location.description == "/no/such/file.json:1:1")
        #expect(failure.issues[0].message.hasPrefix("cannot read the file"))
    }

    @Test func handlesCanBeReusedAfterAwait() throws {
        let text = LoaderFixtures.document(
            steps: #"{ "start": "refresh", "as": "h" }, { "await": "h" }, { "start": "refresh", "as": "h" }, { "await": "h" }"#)
        #expect(try load(text).get().steps.count == 4)
        let twice = LoaderFixtures.document(steps: #"{ "start": "refresh", "as": "h" }, { "await": "h" }, { "await": "h" }"#)
        guard case .failure(let failure) = load(twice) else {
            Issue.record("awaited twice without an issue")
            return
        }
        #expect(failure.issues.map(\.message) == ["handle 'h' was already awaited"])
    }

    @Test func discoveryFindsScenariosRecursivelyAndSkipsSchemas() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("discovery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["b.json", "a/z.json", "a/deep/x.json", "scenario.schema.json", "notes.txt"] {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        let found = try ScenarioDiscovery.find([folder.path, folder.appendingPathComponent("b.json").path])
        #expect(found.map(\.id) == ["a/deep/x", "a/z", "b", "b"])
        #expect(
            found.map(\.path) == [
                folder.path + "/a/deep/x.json", folder.path + "/a/z.json", folder.path + "/b.json", folder.path + "/b.json",
            ])
        #expect(throws: ScenarioDiscovery.Failure.self) { try ScenarioDiscovery.find([folder.path + "/missing"]) }
        do {
            _ = try ScenarioDiscovery.find(["/no/such/place"])
        } catch {
            #expect("\(error)".contains("/no/such/place"))
        }
    }

    /// Exchanges and steps are decoded as the parser reads them: a reference to one written
    /// further down the file is checked once the file is read, in either order.
    @Test func referencesToExchangesAndStepsWrittenLaterLoad() throws {
        let text = """
            {"name": "n", "description": "d",
             "steps": [{"do": "bootstrap"}, {"check": {"requests": {"counts": {"late": 0}}}}, {"name": "held", "do": "refresh"}],
             "exchanges": [
               {"id": "early", "request": {"path": "/a"}, "response": {"status": 200}, "after": "late", "release": {"atStep": "held"}},
               {"id": "late", "request": {"path": "/b"}, "response": {"status": 200}}],
             "expect": {"requests": {"counts": {"early": 0}}}}
            """
        let scenario = try load(text).get()
        #expect(scenario.exchanges.map(\.after) == [["late"], []])
        #expect(scenario.exchanges.first?.release == .atStep("held"))
        #expect(scenario.steps.count == 3)
        let unknown = text.replacingOccurrences(of: #"{"late": 0}"#, with: #"{"lately": 0}"#)
            .replacingOccurrences(of: #""atStep": "held""#, with: #""atStep": "hold""#)
        guard case .failure(let failure) = load(unknown) else {
            Issue.record("references to nothing loaded")
            return
        }
        #expect(
            failure.issues.map(\.message) == [
                "'counts' names unknown exchange 'lately'", #"'atStep' names no step: no step has "name": "hold""#,
            ])
        #expect(failure.issues.map(\.location.path) == ["$.steps[1].check.requests.counts.lately", "$.exchanges[0].release.atStep"])
        #expect(failure.issues.first?.hint == "did you mean 'late'?")
    }

    /// Issues quote short values; a secret written inside an exchange or a step is masked in
    /// them as one written anywhere else is, although those are not kept as a tree.
    @Test func secretsInsideExchangesAndStepsAreMaskedInIssues() {
        let text = """
            {"name": "n", "description": "d",
             "exchanges": [{"request": {"json": {"password": "pw-Zq81x"}}, "response": {"status": 200}}],
             "steps": [{"do": "login", "with": {"email": "a@b.c", "password": "pw-Zq81x"}}, {"do": "pw-Zq81x"}]}
            """
        guard case .failure(let failure) = load(text) else {
            Issue.record("an unknown action loaded")
            return
        }
        #expect(failure.issues.map(\.message) == ["unknown action '‹redacted#1›'"])
        // The check reports what the load reports, and keeps nothing.
        let checked = LoaderFixtures.loader.check(bytes: Array(text.utf8), file: "/scenarios/s.json", id: "s")
        #expect(checked?.issues.map(\.message) == failure.issues.map(\.message))
        #expect(LoaderFixtures.loader.check(bytes: Array(LoaderFixtures.fullScenario.utf8), file: "/scenarios/s.json", id: "s") == nil)
    }

    /// Digits are masked only beside their name, which a message does not write: a value of the
    /// wrong type under a secret name is told by its type; any other value is quoted.
    @Test func aMistypedSecretIsToldByItsTypeAlone() {
        let text = LoaderFixtures.document(
            steps: #"{ "do": "login", "with": { "email": 12345678901, "password": 12345678901 } }"#)
        guard case .failure(let failure) = load(text) else {
            Issue.record("numbers for strings loaded")
            return
        }
        #expect(
            failure.issues.map(\.message) == [
                "argument 'email' of 'login' must be a string; got 12345678901",
                "argument 'password' of 'login' must be a string; got a number",
            ])
    }

    /// A check of a mapped file lets go of the pages it has parsed; they stay readable (an issue
    /// may look back for its column), and an empty file is an issue, not a crash.
    @Test func aMappedFileStaysReadableAfterItsParsedPagesAreLetGo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.bin").path
        let bytes = (0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let mapped = try MappedFile(path: path)
        mapped.release(before: 8 << 20)
        #expect(mapped.bytes.elementsEqual(bytes))
        let empty = folder.appendingPathComponent("empty.json").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let failure = LoaderFixtures.loader.check(mapped: try MappedFile(path: empty), file: "empty.json", id: "e")
        #expect(failure?.issues.map(\.message) == ["the file is empty; expected a JSON value"])
        let scenario = folder.appendingPathComponent("s.json").path
        try Data(LoaderFixtures.fullScenario.utf8).write(to: URL(fileURLWithPath: scenario))
        #expect(LoaderFixtures.loader.check(mapped: try MappedFile(path: scenario), file: scenario, id: "s") == nil)
        #expect(throws: (any Error).self) { try MappedFile(path: folder.appendingPathComponent("missing").path) }
    }

    /// The 1-based line and column (in characters) where the `occurrence`-th `needle` starts.
    static func position(of needle: String, occurrence: Int, in text: String) -> (Int, Int)? {
        var searchStart = text.startIndex
        var found: Range<String.Index>?
        for _ in 0...occurrence {
            guard let range = text.range(of: needle, range: searchStart..<text.endIndex) else { return nil }
            found = range
            searchStart = range.upperBound
        }
        guard let found else { return nil }
        let before = text[..<found.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return (line, text.unicodeScalars[lineStart..<found.lowerBound].count + 1)
    }
}
