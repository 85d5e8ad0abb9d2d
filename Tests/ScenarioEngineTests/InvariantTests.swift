import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// The invariant checker on hand-made run records: each check catches what it is for and lets
/// the run that keeps the property pass.
@Suite struct InvariantCheckerTests {
    /// Builds a record from events in order, as a run's backend does.
    struct Builder {
        var record = RunRecord()

        @discardableResult
        mutating func send(
            _ method: HTTPMethod, _ path: String, at seconds: Int = 0, bearer: String? = nil, json: JSONValue? = nil
        ) -> Int {
            var headers: HTTPFields = [:]
            if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
            let request = HTTPRequest(method: method, path: path, headers: headers, body: json.map { Data($0.compactText.utf8) })
            return record.sent(request, exchange: nil, at: .seconds(seconds))
        }

        mutating func answer(_ number: Int, _ status: Int, at seconds: Int = 0, headers: HTTPFields = [:], json: JSONValue? = nil) {
            let response = HTTPResponse(
                status: HTTPStatus(code: status), headers: headers, body: json.map { Data($0.compactText.utf8) } ?? Data())
            record.answered(number, .response(response), at: .seconds(seconds))
        }

        /// A feed refused with 401 under `old`, then a refresh that hands out `new`.
        mutating func refreshAfter401(from old: String, to new: String) {
            let feed = send(.get, "/feed", bearer: old)
            answer(feed, 401)
            let renew = send(.post, "/auth/refresh", json: ["refresh_token": "ref-1"])
            answer(renew, 200, json: ["data": ["access_token": .string(new)]])
        }

        /// A sign-in answered with `token`; returns its number.
        @discardableResult
        mutating func signIn(token: String) -> Int {
            let login = send(.post, "/auth/login")
            answer(login, 200, json: ["data": ["access_token": .string(token)]])
            return login
        }
    }

    private func invariant(_ rule: Invariant.Rule) -> [Invariant] {
        [
            Invariant(
                id: "it", description: "", rule: rule, location: ScenarioLocation(file: "invariants.json", line: 1, column: 1, path: "$"))
        ]
    }

    private let refresh = RequestMatcher(method: .post, path: .exact("/auth/refresh"))

    @Test func neverSentTwiceCatchesASpentRefreshToken() {
        var run = Builder()
        let first = run.send(.post, "/auth/refresh", json: ["refresh_token": "ref-1"])
        run.answer(first, 200, json: ["data": ["refresh_token": "ref-2"]])
        run.send(.post, "/auth/refresh", json: ["refresh_token": "ref-1"])
        let rule = invariant(.neverSentTwice(requests: refresh, value: .json("refresh_token")))
        let found = InvariantChecker.check(rule, run.record)
        #expect(found.map(\.requests) == [[1, 2]])
        #expect(found.first?.quoted == ["ref-1"])

        var good = Builder()
        good.send(.post, "/auth/refresh", json: ["refresh_token": "ref-1"])
        good.send(.post, "/auth/refresh", json: ["refresh_token": "ref-2"])
        #expect(InvariantChecker.check(rule, good.record).isEmpty)
    }

    @Test func notAfterReplacedCatchesTheOldTokenAfterARefresh() {
        let rule = invariant(
            .notAfterReplaced(value: .header("Authorization", scheme: "Bearer"), replacedBy: nil, answerPath: "data.access_token"))
        var run = Builder()
        run.refreshAfter401(from: "acc-old", to: "acc-new")
        var good = run
        run.send(.get, "/feed", bearer: "acc-old")
        good.send(.get, "/feed", bearer: "acc-new")
        #expect(InvariantChecker.check(rule, run.record).map(\.requests) == [[3, 2]])
        #expect(InvariantChecker.check(rule, good.record).isEmpty)
    }

    /// An answer is read for the new value only when it can hold the path's keys: one that
    /// writes a key with an escape is still read, one that names it nowhere replaces nothing.
    @Test func notAfterReplacedReadsAnAnswerWhoseKeysAreEscaped() {
        let rule = invariant(
            .notAfterReplaced(value: .header("Authorization", scheme: "Bearer"), replacedBy: nil, answerPath: "data.access_token"))
        func run(answering body: String) -> [[Int]] {
            var run = Builder()
            let feed = run.send(.get, "/feed", bearer: "acc-old")
            run.answer(feed, 401)
            let renew = run.send(.post, "/auth/refresh")
            run.record.answered(
                renew, .response(HTTPResponse(status: HTTPStatus(code: 200), headers: [:], body: Data(body.utf8))), at: .seconds(0))
            run.send(.get, "/feed", bearer: "acc-old")
            return InvariantChecker.check(rule, run.record).map(\.requests)
        }
        #expect(run(answering: #"{"data":{"access\u005ftoken":"acc-new"}}"#) == [[3, 2]])
        #expect(run(answering: #"{"data":{"token":"acc-new","note":"access_token"}}"#).isEmpty)
        #expect(run(answering: #"{"data":{"access_token":"acc-new"}}"#) == [[3, 2]])
    }

    @Test func refreshesOnlyForCurrentCatchesALate401RefreshingAgain() {
        let rule = invariant(
            .refreshesOnlyForCurrent(
                value: .header("Authorization", scheme: "Bearer"), refresh: refresh, answerPath: "data.access_token",
                after: StatusSet(statuses: [401])))
        var run = Builder()
        let early = run.send(.get, "/feed", bearer: "acc-old")
        let late = run.send(.get, "/inbox", bearer: "acc-old")
        run.answer(early, 401)
        let first = run.send(.post, "/auth/refresh", json: ["refresh_token": "ref-1"])
        run.answer(first, 200, json: ["data": ["access_token": "acc-new"]])
        run.answer(late, 401)  // late: its token was replaced a moment ago
        var good = run
        run.send(.post, "/auth/refresh", json: ["refresh_token": "ref-2"])  // broken: spends ref-2 for nothing
        let retry = good.send(.get, "/inbox", bearer: "acc-new")  // retried with the new token
        #expect(InvariantChecker.check(rule, run.record).map(\.requests) == [[4, 2, 3]])
        #expect(InvariantChecker.check(rule, good.record).isEmpty)

        // The new token refused in turn, or a refresh with no refusal before it: nothing to say.
        var again = good
        again.answer(retry, 401)
        again.send(.post, "/auth/refresh", json: ["refresh_token": "ref-2"])
        again.send(.post, "/auth/refresh", json: ["refresh_token": "ref-3"])
        #expect(InvariantChecker.check(rule, again.record).isEmpty)
    }

    @Test func noneAfterStopsAtTheEventAndReopensAtUntil() {
        let blocked = AnswerMatcher(status: StatusSet(statuses: [403]))
        let signIn = AnswerMatcher(request: RequestMatcher(path: .exact("/auth/login")), status: .success)
        let rule = invariant(
            .noneAfter(
                after: [.answered(blocked)], until: [.answered(signIn)], requests: nil, carrying: .header("Authorization", scheme: nil)))
        var run = Builder()
        let straggler = run.send(.get, "/inbox", bearer: "a1")
        let feed = run.send(.get, "/feed", bearer: "a1")
        run.answer(feed, 403)
        run.send(.get, "/users/me", bearer: "a1")  // after the block: broken
        let login = run.send(.post, "/auth/login")
        run.answer(login, 200)
        // A late 403 to a request of the ended session arms nothing.
        run.answer(straggler, 403)
        run.send(.get, "/feed", bearer: "a2")
        let found = InvariantChecker.check(rule, run.record)
        #expect(found.map(\.requests) == [[3, 2]])
        // Its message masks the credential as transcripts do, so the scheme still shows there.
        #expect(found.map(\.quoted) == [["a1"]])
    }

    @Test func maxInFlightCountsOverlappingRefreshes() {
        let rule = invariant(.maxInFlight(requests: refresh, max: 1))
        var run = Builder()
        let one = run.send(.post, "/auth/refresh")
        run.answer(one, 200)
        let two = run.send(.post, "/auth/refresh")
        #expect(InvariantChecker.check(rule, run.record).isEmpty)
        run.send(.post, "/auth/refresh")
        run.answer(two, 200)
        #expect(InvariantChecker.check(rule, run.record).map(\.requests) == [[2, 3]])
    }

    @Test func maxRepeatsFollowsChainsOfRefusedCopies() {
        let rule = invariant(.maxRepeats(requests: nil, max: 1, after: StatusSet(statuses: [401])))
        var run = Builder()
        // Two parallel copies, each refused and repeated once: fine.
        let a = run.send(.get, "/feed", bearer: "old")
        let b = run.send(.get, "/feed", bearer: "old")
        run.answer(a, 401)
        run.answer(b, 401)
        let a2 = run.send(.get, "/feed", bearer: "new")
        run.send(.get, "/feed", bearer: "new")
        #expect(InvariantChecker.check(rule, run.record).isEmpty)
        run.answer(a2, 401)
        run.send(.get, "/feed", bearer: "newer")
        #expect(InvariantChecker.check(rule, run.record).map(\.requests) == [[1, 5]])
    }

    @Test func respectsRetryAfterInSecondsAndAsAnHTTPDate() {
        let rule = invariant(.respectsRetryAfter(requests: nil, statuses: StatusSet(statuses: [429, 503])))
        var run = Builder()
        let first = run.send(.get, "/feed", at: 0)
        run.answer(first, 429, at: 0, headers: ["Retry-After": "30"])
        var good = run
        run.send(.get, "/feed", at: 29)
        good.send(.get, "/feed", at: 30)
        good.send(.get, "/inbox", at: 1)  // another route
        #expect(InvariantChecker.check(rule, run.record).map(\.requests) == [[1, 2]])
        #expect(InvariantChecker.check(rule, good.record).isEmpty)

        // 2026-01-01T00:02:00Z is two minutes after the record's clock start.
        var dated = Builder()
        let down = dated.send(.get, "/health", at: 0)
        dated.answer(down, 503, at: 0, headers: ["Retry-After": "Thu, 01 Jan 2026 00:02:00 GMT"])
        dated.send(.get, "/health", at: 119)
        #expect(InvariantChecker.check(rule, dated.record).count == 1)
    }

    @Test func reportsRetryAfterComparesTheActionsErrorWithTheAnswer() {
        let rule = invariant(.reportsRetryAfter(statuses: StatusSet(statuses: [429]), field: "retryAfter"))
        var run = Builder()
        let reset = run.send(.post, "/auth/password/forgot")
        run.answer(reset, 429, headers: ["Retry-After": "3600"])
        func record(_ error: JSONValue) -> RunRecord {
            var record = run.record
            record.actions = [RunRecord.Action(name: "forgotPassword", began: 0, ended: run.record.count, result: .error(error))]
            return record
        }
        #expect(InvariantChecker.check(rule, record(["code": "rateLimited", "retryAfter": 3600])).isEmpty)
        #expect(InvariantChecker.check(rule, record(["code": "rateLimited", "retryAfter": 3.6])).count == 1)
        #expect(InvariantChecker.check(rule, record(["code": "rateLimited"])).count == 1)
    }

    @Test func alertAtMostPerSessionWithACause() {
        let cause = AnswerMatcher(status: StatusSet(statuses: [403]), notJSON: [["error_code": "USER_INACTIVE"]])
        let login = RequestMatcher(method: .post, path: .exact("/auth/login"))
        let rule = invariant(.alertAtMost(alert: blocked, max: 1, sessions: SessionSpec(startWith: [login]), cause: cause, required: true))
        var run = Builder()
        let feed = run.send(.get, "/feed")
        run.answer(feed, 403)
        run.record.alerts = [blocked]
        #expect(InvariantChecker.check(rule, run.record).isEmpty)
        run.record.alerts = [blocked, blocked]
        #expect(InvariantChecker.check(rule, run.record).count == 1)
        // A second session blocked again must alert again.
        let signIn = run.send(.post, "/auth/login")
        run.answer(signIn, 200)
        let again = run.send(.get, "/feed")
        run.answer(again, 403)
        #expect(InvariantChecker.check(rule, run.record).isEmpty)
        run.record.alerts = [blocked]
        #expect(InvariantChecker.check(rule, run.record).count == 1)
        // No cause: no alert.
        var inactive = Builder()
        let me = inactive.send(.get, "/users/me")
        inactive.answer(me, 403, json: ["error_code": "USER_INACTIVE"])
        inactive.record.alerts = [blocked]
        #expect(InvariantChecker.check(rule, inactive.record).count == 1)
    }

    /// Sign-ins begin sessions; the bearer token, handed out by sign-ins and refreshes, ties a request to its session.
    private let sessions = SessionSpec(
        startWith: [RequestMatcher(method: .post, path: .exact("/auth/login"))], credentials: [.header("Authorization", scheme: "Bearer")],
        issued: ["data.access_token"])

    private let blocked: JSONValue = ["title": "Account Blocked"]

    /// At most one "Account Blocked" alert per session, caused by a 403 of that session.
    private func blockedAtMostOnce(sessions: SessionSpec, required: Bool) -> [Invariant] {
        invariant(
            .alertAtMost(
                alert: blocked, max: 1, sessions: sessions, cause: AnswerMatcher(status: StatusSet(statuses: [403])), required: required))
    }

    /// A request refused with 401 is repeated only in its own session.
    private var repeatsAfter401: [Invariant] {
        invariant(.repeatsWithinSession(requests: nil, after: StatusSet(statuses: [401]), sessions: sessions))
    }

    /// The caller of `feed` (request #1) still waits.
    private let feedWaiting = RunRecord.Action(name: "feed", began: 0, ended: nil, result: nil)

    @Test func alertAtMostMakesNothingDueForALateAnswerOfAnEndedSession() {
        let rule = blockedAtMostOnce(sessions: sessions, required: true)
        var run = Builder()
        let straggler = run.send(.get, "/users/related", bearer: "acc-1")
        let feed = run.send(.get, "/feed", bearer: "acc-1")
        run.answer(feed, 403)
        run.signIn(token: "acc-2")
        run.answer(straggler, 403)
        run.record.alerts = [blocked]
        #expect(InvariantChecker.check(rule, run.record).isEmpty)
        // The late 403 handled again in the new session: a second alert, which nothing made due.
        run.record.alerts = [blocked, blocked]
        let found = InvariantChecker.check(rule, run.record)
        #expect(found.map(\.requests) == [[2, 1, 3]])
        #expect(
            found.first?.message.contains("the 403 to #1, a request of the first session, came when the session the answer to #3 began")
                == true)

        // Sent after the sign-in with the old token, a request still belongs to the old session.
        var late = Builder()
        let first = late.send(.get, "/feed", bearer: "acc-1")
        late.answer(first, 403)
        late.signIn(token: "acc-2")
        let old = late.send(.get, "/inbox", bearer: "acc-1")
        late.answer(old, 403)
        late.record.alerts = [blocked, blocked]
        #expect(InvariantChecker.check(rule, late.record).count == 1)
        // Without credentials the request is taken for one of the session under way, which may alert.
        let byPeriod = blockedAtMostOnce(sessions: SessionSpec(startWith: sessions.startWith), required: false)
        #expect(InvariantChecker.check(byPeriod, late.record).isEmpty)
    }

    @Test func aTokenARefreshHandsOutLateStaysWithTheSessionThatAskedForIt() {
        let rule = blockedAtMostOnce(sessions: sessions, required: false)
        var run = Builder()
        let feed = run.send(.get, "/feed", bearer: "acc-1")
        run.answer(feed, 401)
        let renew = run.send(.post, "/auth/refresh", json: ["refresh_token": "ref-1"])
        run.signIn(token: "acc-2")
        run.answer(renew, 200, json: ["data": ["access_token": "acc-1b"]])
        // The old session's refreshed token, used after the new sign-in: its 403 is the old session's.
        let stale = run.send(.get, "/inbox", bearer: "acc-1b")
        run.answer(stale, 403)
        run.record.alerts = [blocked]
        #expect(InvariantChecker.check(rule, run.record).map(\.requests) == [[4, 3]])
        var own = Builder()
        own.signIn(token: "acc-2")
        let inbox = own.send(.get, "/inbox", bearer: "acc-2")
        own.answer(inbox, 403)
        own.record.alerts = [blocked]
        #expect(InvariantChecker.check(rule, own.record).isEmpty)
    }

    @Test func repeatsWithinSessionCatchesARequestOfAnEndedSessionRepeatedWithTheNewToken() {
        let rule = repeatsAfter401
        var run = Builder()
        let feed = run.send(.get, "/feed", bearer: "acc-1")
        let logout = run.send(.post, "/auth/logout", bearer: "acc-1")
        run.answer(logout, 204)
        run.signIn(token: "acc-2")
        run.answer(feed, 401)
        var clean = run
        // The caller of #1 still waits while its request is sent again with the new session's token.
        let again = run.send(.get, "/feed", bearer: "acc-2")
        run.answer(again, 200)
        run.record.actions = [RunRecord.Action(name: "feed", began: 0, ended: run.record.count, result: .value(.null))]
        let found = InvariantChecker.check(rule, run.record)
        #expect(found.map(\.requests) == [[1, 4, 3]])
        #expect(
            found.first?.message.contains(
                "with a credential of the session the answer to #3 began, but #1 is a request of the first session") == true)

        // Repeated with the old token after the new session began: still a repeat of an ended session.
        var old = clean
        old.send(.get, "/feed", bearer: "acc-1")
        old.record.actions = [feedWaiting]
        #expect(InvariantChecker.check(rule, old.record).first?.message.contains("after its session ended") == true)

        // The caller got its error when the 401 came; the new session's own feed is a new call.
        clean.record.actions = [
            RunRecord.Action(name: "feed", began: 0, ended: clean.record.count, result: .error(["code": "sessionExpired"]))
        ]
        clean.send(.get, "/feed", bearer: "acc-2")
        clean.record.actions.append(RunRecord.Action(name: "feed", began: clean.record.count - 1, ended: nil, result: nil))
        #expect(InvariantChecker.check(rule, clean.record).isEmpty)
    }

    @Test func repeatsWithinSessionLetsARefreshedRepeatOfTheSameSessionPass() {
        let rule = repeatsAfter401
        var run = Builder()
        run.refreshAfter401(from: "acc-1", to: "acc-1b")
        var crossed = run
        run.send(.get, "/feed", bearer: "acc-1b")
        run.record.actions = [feedWaiting]
        #expect(InvariantChecker.check(rule, run.record).isEmpty)
        // The same repeat with a token another session's sign-in handed out is not.
        crossed.signIn(token: "acc-2")
        crossed.send(.get, "/feed", bearer: "acc-2")
        crossed.record.actions = [feedWaiting]
        #expect(InvariantChecker.check(rule, crossed.record).map(\.requests) == [[1, 4, 3]])
    }

    @Test func timelineMovesOnlyAlongTransitions() {
        let rule = invariant(
            .timeline(initial: ["loading"], transitions: ["loading": ["authenticated"], "authenticated": ["unauthenticated"]]))
        let good = RunRecord(requests: [], timeline: ["loading", "authenticated", "unauthenticated"])
        let bad = RunRecord(requests: [], timeline: ["loading", "unauthenticated"])
        #expect(InvariantChecker.check(rule, good).isEmpty)
        #expect(InvariantChecker.check(rule, bad).count == 1)
        #expect(InvariantChecker.check(rule, RunRecord(requests: [], timeline: ["authenticated"])).count == 1)
    }
}

/// Invariant files load as strictly as scenarios, and are found beside the scenarios they govern.
@Suite struct InvariantLoadingTests {
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("invariants-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path + "/topic", withIntermediateDirectories: true)
        return path
    }

    /// Below the working directory, a file or subfolder run on its own is governed as when its
    /// whole folder runs: a schedule explored there replays on the file alone.
    @Test func aFileRunOnItsOwnBelowTheWorkingDirectoryKeepsTheFilesAboveIt() throws {
        let here = FileManager.default.currentDirectoryPath
        let name = "invariants-below-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: here + "/" + name + "/topic", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: here + "/" + name) }
        let file = #"{"invariants": [{"id": "one-refresh", "description": "d", "check": "maxInFlight", "max": 1}]}"#
        try file.write(toFile: here + "/" + name + "/invariants.json", atomically: true, encoding: .utf8)
        try LoaderFixtures.document().write(toFile: here + "/" + name + "/topic/s.json", atomically: true, encoding: .utf8)
        // As a command given the file itself, or its subfolder, names it.
        #expect(InvariantFiles.governing(path: name + "/topic/s.json", id: "s") == [name + "/invariants.json"])
        #expect(InvariantFiles.governing(path: here + "/" + name + "/topic/s.json", id: "s") == [here + "/" + name + "/invariants.json"])
        #expect(try LoaderFixtures.loader.load(contentsOf: name + "/topic/s.json", id: "s").get().invariants.map(\.id) == ["one-refresh"])
    }

    @Test func aMisspeltKeyIsReportedWithItsPlaceAndASuggestion() {
        let text = """
            {
              "invariants": [
                { "id": "one-refresh", "description": "d", "check": "maxInFlight", "requests": { "path": "/auth/refresh" }, "maks": 1 },
                { "id": "x", "description": "d", "check": "neverSentTwise", "value": { "json": "t" } }
              ]
            }
            """
        guard case .failure(let failure) = InvariantFiles.load(data: Data(text.utf8), file: "invariants.json") else {
            Issue.record("loaded")
            return
        }
        let lines = failure.issues.map(\.description)
        #expect(
            lines.contains { $0.hasPrefix("invariants.json:3:") && $0.contains("unknown key 'maks'") && $0.contains("did you mean 'max'?") }
        )
        #expect(lines.contains { $0.contains("$.invariants[0].maks") })
        #expect(lines.contains { $0.contains("unknown check \"neverSentTwise\"") && $0.contains("did you mean 'neverSentTwice'?") })
    }

    @Test func aValuesPlaceTakesExactlyOneKind() {
        let text = #"{"invariants": [{"id": "x", "description": "d", "check": "neverSentTwice", "value": {"json": "a", "header": "b"}}]}"#
        guard case .failure(let failure) = InvariantFiles.load(data: Data(text.utf8), file: "i.json") else {
            Issue.record("loaded")
            return
        }
        #expect(failure.issues.contains { $0.message.contains("exactly one of 'header', 'json', 'form' or 'query'") })
    }

    /// What could never match or never pass is refused, and a check that is not a name says so.
    @Test func invariantsThatCouldNeverHoldOrMatchAreRefused() {
        func messages(_ body: String) -> [String] {
            let text = #"{"invariants": [{"id": "x", "description": "d", \#(body)}]}"#
            guard case .failure(let failure) = InvariantFiles.load(data: Data(text.utf8), file: "i.json") else { return [] }
            return failure.issues.map(\.message)
        }
        #expect(
            messages(#""check": "neverSentTwice", "value": {"json": "data..token"}"#).first?.hasPrefix("'json' must be a dotted path")
                == true)
        #expect(messages(#""check": "neverSentTwice", "value": {"json": "data.token"}"#).isEmpty)
        #expect(
            messages(#""check": "timeline", "initial": [], "transitions": {}"#)
                == ["'initial' must name at least one state the timeline may start at"])
        #expect(messages(#""check": {}"#).first?.hasPrefix("'check' must be a check's name; got an object") == true)
    }

    @Test func sessionsLoadStrictly() {
        func issues(_ sessions: String, check: String = "repeatsWithinSession") -> [LoadIssue] {
            let text = #"{"invariants": [{"id": "x", "description": "d", "check": "\#(check)"\#(sessions)}]}"#
            guard case .failure(let failure) = InvariantFiles.load(data: Data(text.utf8), file: "i.json") else { return [] }
            return failure.issues
        }
        #expect(issues(#", "sessions": {"startWith": {"path": "/auth/login"}}"#).isEmpty)
        #expect(issues("").contains { $0.message.contains("missing required key 'sessions'") })
        #expect(issues(#", "sessions": {"startwith": {"path": "/auth/login"}}"#).contains { $0.hint == "did you mean 'startWith'?" })
        let noCredential = issues(#", "sessions": {"startWith": {"path": "/auth/login"}, "issued": "data.access_token"}"#)
        #expect(
            noCredential.contains {
                $0.message.contains("'issued' needs 'credential'") && $0.location.path == "$.invariants[0].sessions.issued"
            })
        #expect(
            issues(#", "sessions": {"startWith": [], "credential": {"header": "Authorization"}}"#).contains {
                $0.message.contains("'startWith' needs at least one request")
            })
        #expect(
            issues(#", "sessions": {"startWith": {"path": "/auth/login"}, "credential": {"headr": "A"}}"#).contains {
                $0.hint == "did you mean 'header'?"
            })
        // alertAtMost takes sessions too, and the old key is gone.
        #expect(issues(#", "alert": {"title": "t"}, "sessions": {"startWith": {"path": "/auth/login"}}"#, check: "alertAtMost").isEmpty)
        #expect(!issues(#", "alert": {"title": "t"}, "sessionStartsWith": {"path": "/auth/login"}"#, check: "alertAtMost").isEmpty)
    }

    @Test func scenariosInheritTheFilesAboveThemAndSwitchOneOffWithAReason() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = #"{"invariants": [{"id": "one-refresh", "description": "d", "check": "maxInFlight", "max": 1}]}"#
        try file.write(toFile: root + "/invariants.json", atomically: true, encoding: .utf8)
        let scenario = LoaderFixtures.document()
        try scenario.write(toFile: root + "/topic/s.json", atomically: true, encoding: .utf8)
        let found = try ScenarioDiscovery.find([root])
        #expect(found.map(\.id) == ["topic/s"])
        #expect(InvariantFiles.governing(path: found[0].path, id: found[0].id) == [root + "/invariants.json"])
        let loaded = try LoaderFixtures.loader.load(contentsOf: found[0].path, id: found[0].id).get()
        #expect(loaded.invariants.map(\.id) == ["one-refresh"])

        // Given on its own outside the working directory, the file is its own root: nothing above it governs it.
        #expect(try LoaderFixtures.loader.load(contentsOf: found[0].path, id: "s").get().invariants.isEmpty)

        let off = LoaderFixtures.document(extra: #""invariants": {"off": {"one-refresh": "this scenario refreshes twice on purpose"}}"#)
        try off.write(toFile: root + "/topic/s.json", atomically: true, encoding: .utf8)
        #expect(try LoaderFixtures.loader.load(contentsOf: found[0].path, id: found[0].id).get().invariants.isEmpty)

        let misspelt = LoaderFixtures.document(extra: #""invariants": {"off": {"one-refresj": "x"}}"#)
        try misspelt.write(toFile: root + "/topic/s.json", atomically: true, encoding: .utf8)
        guard case .failure(let failure) = LoaderFixtures.loader.load(contentsOf: found[0].path, id: found[0].id) else {
            Issue.record("loaded")
            return
        }
        #expect(failure.issues.contains { $0.hint == "did you mean 'one-refresh'?" })

        let noReason = LoaderFixtures.document(extra: #""invariants": {"off": {"one-refresh": ""}}"#)
        try noReason.write(toFile: root + "/topic/s.json", atomically: true, encoding: .utf8)
        #expect(throws: LoadFailure.self) { try LoaderFixtures.loader.load(contentsOf: found[0].path, id: found[0].id).get() }

        // A broken invariant file makes every scenario it governs fail to load, naming the file.
        try #"{"invariants": [{"id": 1}]}"#.write(toFile: root + "/invariants.json", atomically: true, encoding: .utf8)
        guard case .failure(let broken) = LoaderFixtures.loader.load(contentsOf: found[0].path, id: found[0].id) else {
            Issue.record("loaded")
            return
        }
        #expect(broken.issues.contains { $0.location.file == root + "/invariants.json" })
    }
}
