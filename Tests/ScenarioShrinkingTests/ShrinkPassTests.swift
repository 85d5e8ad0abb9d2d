import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioShrinking

/// Each pass of the shrinker on a scenario made for it: what the failure does not need goes,
/// what it needs stays, and the result loads and fails the same way.
@Suite struct ShrinkPassTests {
    /// `get /boom` answers 500 where the step wants 200: the failure every scenario here keeps.
    static let boom = #"{ "id": "boom", "request": { "method": "GET", "path": "/boom" }, "response": { "status": 500 } }"#
    static let boomStep = #"{ "do": "get", "with": { "path": "/boom" }, "expect": { "value": { "status": 200 } } }"#

    static func get(_ path: String) -> String { #"{ "do": "get", "with": { "path": "\#(path)" } }"# }
    static func exchange(_ id: String, _ path: String, _ more: String = "") -> String {
        #"{ "id": "\#(id)", "request": { "method": "GET", "path": "\#(path)" }, "response": { "status": 200 }\#(more) }"#
    }

    static func scenario(exchanges: [String], steps: [String], more: String = "") -> String {
        """
        { "$schema": "../scenario.schema.json", "name": "shrink me", "description": "a failure and what it does not need",
          "exchanges": [\(exchanges.joined(separator: ",\n"))],
          "steps": [\(steps.joined(separator: ",\n"))]\(more) }
        """
    }

    /// Shrinks `text` and returns the result and the report, checking that the result fails the
    /// way the input did.
    static func shrink(_ text: String, settings: ShrinkSettings = .unhurried) async throws -> (JSONValue, ShrinkReport) {
        let fixture = try ShrinkFixture(text, driver: ShrinkTestDriver())
        defer { fixture.remove() }
        let outcome = await fixture.shrink(settings)
        guard case .written(let report) = outcome else { throw Refused(outcome: "\(outcome)") }
        let result = try await fixture.run()
        #expect(report.kept.holds(for: FailureFingerprint.parts(of: result)), "\(result.failures.map(\.summary))")
        return (try fixture.result(), report)
    }

    struct Refused: Error { var outcome: String }

    static func steps(_ result: JSONValue) -> [JSONValue] { result["steps"]?.arrayValue ?? [] }
    static func ids(_ result: JSONValue) -> [String] { (result["exchanges"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue } }

    @Test func stepsGoWithTheExchangesOnlyTheyUsed() async throws {
        let text = Self.scenario(
            exchanges: [Self.exchange("a", "/a", #", "times": 4"#), Self.exchange("b", "/b"), Self.exchange("c", "/c"), Self.boom],
            steps: [
                Self.get("/a"), Self.get("/b"), #"{ "start": "get", "with": { "path": "/c" }, "as": "c" }"#, Self.get("/a"),
                #"{ "check": { "requests": { "counts": { "a": 2, "b": 1 } } } }"#, #"{ "await": "c", "expect": { "ok": true } }"#,
                Self.get("/a"), Self.boomStep, Self.get("/a"),
            ])
        let (result, report) = try await Self.shrink(text)
        #expect(Self.steps(result) == [try #require(JSONValue.parse(Data(Self.boomStep.utf8)))])
        #expect(Self.ids(result) == ["boom"])
        #expect(report.from == ShrinkSize(steps: 9, exchanges: 4))
        #expect(report.to == ShrinkSize(steps: 1, exchanges: 1))
        #expect(report.kept.description == "outcome of get: status got 500")
    }

    @Test func anExchangeGoesWithEveryReferenceToIt() async throws {
        let text = Self.scenario(
            exchanges: [Self.exchange("first", "/x"), Self.exchange("second", "/x", #", "after": ["first"]"#), Self.boom],
            steps: [
                Self.get("/x"), #"{ "check": { "requests": { "counts": { "first": 1 }, "total": 1 } } }"#, Self.get("/x"), Self.boomStep,
            ],
            more: #", "expect": { "requests": { "log": [{ "exchange": "first" }, { "exchange": "second" }, { "exchange": "boom" }] } }"#)
        let (result, _) = try await Self.shrink(text)
        #expect(Self.ids(result) == ["boom"])
        #expect(Self.steps(result).count == 1)
        #expect(result["expect"] == nil, "the log named what went; it is no part of the failure")
    }

    @Test func copiesUsesAndGroupMembersGoDown() async throws {
        let text = Self.scenario(
            exchanges: [
                #"{ "id": "boom", "request": { "method": "GET", "path": "/boom" }, "response": { "status": 500 }, "times": 6, "release": { "whenPending": 6 } }"#,
                Self.exchange("a", "/a"), Self.exchange("b", "/b"),
            ],
            steps: [
                #"{ "do": "get", "with": { "path": "/boom" }, "parallel": 6, "expect": { "value": { "status": 200 } } }"#,
                #"{ "group": [{ "do": "get", "with": { "path": "/a" } }, { "do": "get", "with": { "path": "/b" } }] }"#,
            ])
        let (result, _) = try await Self.shrink(text)
        let step = try #require(Self.steps(result).first)
        #expect(step["parallel"] == nil, "\(result.prettyText)")
        let boom = try #require(result["exchanges"]?.arrayValue?.first)
        #expect(boom["times"] == nil, "\(boom.prettyText)")
        #expect((boom["release"]?["whenPending"]?.intValue ?? 1) == 1)
        #expect(Self.steps(result).count == 1)

        // A group keeps the member the failure needs.
        let grouped = Self.scenario(
            exchanges: [Self.boom, Self.exchange("a", "/a"), Self.exchange("b", "/b")],
            steps: [
                #"{ "group": [{ "do": "get", "with": { "path": "/a" } }, { "do": "get", "with": { "path": "/boom" }, "expect": { "value": { "status": 200 } } }, { "do": "get", "with": { "path": "/b" } }] }"#
            ])
        let (shrunk, _) = try await Self.shrink(grouped)
        let members = try #require(Self.steps(shrunk).first?["group"]?.arrayValue)
        #expect(members.count == 1)
        #expect(members.first?["with"]?["path"] == "/boom")
    }

    @Test func timeIsCutToWhatTheFailureNeeds() async throws {
        // The request goes out 25 s after its step starts: the advance must last that long.
        let text = Self.scenario(
            exchanges: [Self.exchange("slow", "/slow", #", "latency": "3s""#)],
            steps: [
                #"{ "start": "later", "with": { "seconds": 25, "path": "/late" }, "as": "late" }"#, Self.get("/slow"),
                #"{ "advance": "1h" }"#,
            ],
            more: #", "given": { "clock": { "start": "2026-05-01T10:00:00Z" }, "profile": { "name": "x" } }"#)
        let (result, report) = try await Self.shrink(text)
        #expect(report.kept.description == "unmatched request GET /late")
        let advances = Self.steps(result).compactMap { $0["advance"]?.stringValue }
        let advance = try #require(advances.first)
        let duration = try DurationText.parse(advance)
        #expect(duration >= .seconds(25) && duration < .seconds(50), "\(advance)")
        #expect(result["given"] == nil, "the clock start and the profile are not needed")
        #expect(Self.ids(result).isEmpty)
    }

    @Test func aLatencyTheFailureDoesNotNeedGoes() async throws {
        let text = Self.scenario(
            exchanges: [
                #"{ "id": "boom", "request": { "method": "GET", "path": "/boom" }, "response": { "status": 500 }, "latency": "2s" }"#
            ],
            steps: [Self.boomStep])
        let (result, _) = try await Self.shrink(text)
        #expect(result["exchanges"]?.arrayValue?.first?["latency"] == nil)
    }

    @Test func membersOfAnswersAndGivenGoLevelByLevel() async throws {
        let text = Self.scenario(
            exchanges: [
                #"{ "id": "boom", "request": { "method": "GET", "path": "/boom" }, "response": { "status": 500, "headers": { "X-One": "1", "Retry-After": "5" }, "json": { "error": { "code": "E", "detail": "d" }, "n": 1 } } }"#
            ],
            steps: [Self.boomStep], more: #", "given": { "profile": { "name": "Ana", "tags": ["a", "b"] } }"#)
        let (result, _) = try await Self.shrink(text)
        let response = try #require(result["exchanges"]?.arrayValue?.first?["response"])
        #expect(response == JSONValue.object(["status": 500]), "\(response.prettyText)")
        #expect(result["given"] == nil)
    }

    /// Expectations that are no part of the failure go while it shrinks (they would hold steps
    /// in place); at the end, the input's request counts of exchanges every run must use come back
    /// where they still hold, but not a total that counts requests a fixed stack sends fewer of,
    /// nor the state or alerts the run with the bug showed.
    @Test func expectationsThatAreNoPartOfTheFailureGoAndThoseThatStillHoldComeBack() async throws {
        let text = Self.scenario(
            exchanges: [Self.boom, Self.exchange("a", "/a")],
            steps: [
                #"{ "do": "get", "with": { "path": "/a" }, "expect": { "ok": true } }"#, Self.boomStep,
                #"{ "check": { "requests": { "total": 2 } } }"#,
            ],
            more: #", "expect": { "requests": { "total": 2, "counts": { "a": 1, "boom": 1 } }, "alerts": [] }"#)
        let (result, _) = try await Self.shrink(text)
        #expect(result["expect"] == ["requests": ["counts": ["boom": 1]]], "\(result.prettyText)")
        #expect(Self.steps(result).count == 1)
        #expect(Self.steps(result).first?["expect"] != nil, "the outcome that fails stays")
    }

    /// A candidate that fails, but another way, is not taken: without its exchange the request
    /// gets a 404, which is not the 500 the step failed by.
    @Test func aCandidateThatFailsAnotherWayIsNotTaken() async throws {
        let (result, report) = try await Self.shrink(Self.scenario(exchanges: [Self.boom], steps: [Self.boomStep]))
        #expect(Self.ids(result) == ["boom"])
        let others = report.otherFailures.map(\.part)
        #expect(others.contains("unmatched request GET /boom") || others.contains("outcome of get: status got 404"), "\(others)")
    }
}
