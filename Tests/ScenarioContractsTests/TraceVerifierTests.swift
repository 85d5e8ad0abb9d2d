import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine
@testable import ScenarioTraces

/// Scripted answers against captured ones: each kind of finding at the scenario key it is about
/// and the capture entry it is measured against; a route no capture answers is never passed.
@Suite struct TraceVerifierTests {
    static func capture(
        _ method: String, _ url: String, status: Int, headers: [HARLog.Field] = [], body: String = "", line: Int
    ) -> HARLog.Entry {
        var entry = HARLog.Entry(
            started: Date(timeIntervalSince1970: 0), time: 1, request: HARLog.Request(method: method, url: url),
            response: HARLog.Response(status: status, headers: headers, body: Data(body.utf8)))
        entry.line = line
        entry.column = 5
        return entry
    }

    static let log = HARLog(entries: [
        capture(
            "GET", "https://api.example.com/feed", status: 200, headers: [.init("X-Request-Id", "1"), .init("X-Api-Version", "2")],
            body: #"{"success": true, "data": {"posts": [{"id": "p1", "author_id": "u1"}]}}"#, line: 10),
        capture(
            "GET", "https://api.example.com/feed", status: 200, headers: [.init("X-Api-Version", "2")],
            body: #"{"success": true, "data": {"posts": []}}"#, line: 20),
        capture(
            "GET", "https://api.example.com/feed", status: 429, headers: [.init("Retry-After", "120")],
            body: #"{"success": false, "error_code": "RATE_LIMITED"}"#, line: 30),
        capture("GET", "https://api.example.com/users/u%2D1/block", status: 204, line: 40),
    ])

    func verdict(_ exchanges: String) throws -> ScenarioVerdict {
        let folder = try ContractFolder()
        let (scenario, root) = try folder.scenario(exchanges: exchanges)
        return TraceVerifier(logs: [("t.har", Self.log)]).verify(scenario, root: root)
    }

    func only(_ exchanges: String) throws -> ContractFinding {
        let findings = try verdict(exchanges).findings
        #expect(findings.count == 1, "\(findings.map(\.description))")
        return try #require(findings.first)
    }

    static let feed = #"{ "method": "GET", "path": "/feed" }"#

    @Test func answersTheCapturesShowConform() throws {
        let verdict = try verdict(
            [
                ContractFixtures.exchange(
                    "ok", Self.feed,
                    #"{ "status": 200, "headers": { "X-Api-Version": "3" }, "json": { "success": true, "data": { "posts": [{ "id": "p9" }] } } }"#
                ),
                ContractFixtures.exchange(
                    "slow", Self.feed, #"{ "status": 429, "headers": { "Retry-After": "30" }, "json": { "success": false } }"#),
                ContractFixtures.exchange("block", #"{ "method": "PUT", "pathPattern": "/users/{id}/block" }"#, #"{ "status": 204 }"#),
            ].joined(separator: ", "))
        // PUT was never captured: that one could not be checked, and is not passed.
        #expect(verdict.exchanges.map(\.outcome) == [.conforms, .conforms, .couldNotCheck], "\(verdict.findings.map(\.description))")
        #expect(verdict.exchanges[2].unchecked.first?.reason.contains("no capture answers /users/{id}/block") == true)
    }

    @Test func aStatusNeverCapturedIsAFinding() throws {
        let finding = try only(ContractFixtures.exchange("x", Self.feed, #"{ "status": 503, "headers": { "X-Api-Version": "2" } }"#))
        #expect(finding.kind == .statusNeverCaptured && finding.actual == "503" && finding.expected.contains("(200, 429)"))
        #expect(finding.source == DocumentPlace(file: "t.har", line: 10, column: 5))
        #expect(finding.scenario.path == "$.exchanges[0].response.status")
    }

    @Test func membersAndTypesTheCapturesNeverHaveAreFindings() throws {
        let renamed = try only(
            ContractFixtures.exchange(
                "x", Self.feed,
                #"{ "status": 429, "headers": { "Retry-After": "9" }, "json": { "success": false, "code": "RATE_LIMITED" } }"#))
        #expect(renamed.kind == .memberNeverCaptured && renamed.bodyPath == "$.code" && renamed.actual == "'code'")
        #expect(renamed.expected.contains("error_code, success"))
        #expect(renamed.source?.line == 30)
        let retyped = try only(
            ContractFixtures.exchange(
                "x", Self.feed,
                #"{ "status": 200, "headers": { "X-Api-Version": "2" }, "json": { "success": true, "data": { "posts": [{ "id": 7 }] } } }"#)
        )
        #expect(retyped.kind == .typeNeverCaptured && retyped.bodyPath == "$.data.posts[0].id" && retyped.expected.hasPrefix("string"))
        let text = LoaderFixtures.document(
            exchanges: ContractFixtures.exchange(
                "x", Self.feed,
                #"{ "status": 200, "headers": { "X-Api-Version": "2" }, "json": { "success": true, "data": { "posts": [{ "id": 7 }] } } }"#)
        )
        let place = ContractFixtures.position(of: #""id": 7"#, in: text)
        #expect(retyped.scenario.line == place.line && retyped.scenario.column == place.column)
    }

    @Test func aHeaderEveryCaptureSendsIsAFindingWhenLeftOut() throws {
        let finding = try only(ContractFixtures.exchange("x", Self.feed, #"{ "status": 200, "json": { "success": true } }"#))
        // X-Request-Id is a transport header; X-Api-Version is the API's own.
        #expect(finding.kind == .headerAlwaysCaptured && finding.expected == "a header X-Api-Version (each of the 2 captures sends it)")
    }

    @Test func retryAfterInAnotherFormThanCapturedIsAFinding() throws {
        let finding = try only(
            ContractFixtures.exchange(
                "x", Self.feed,
                #"{ "status": 429, "headers": { "Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT" }, "json": { "success": false } }"#))
        #expect(finding.kind == .retryAfterForm && finding.actual.hasPrefix("an HTTP-date") && finding.expected.contains("delta-seconds"))
        #expect(finding.scenario.path == "$.exchanges[0].response.headers.Retry-After")
    }

    @Test func aTextBodyWhereCapturesAreJSONIsAFinding() throws {
        let finding = try only(
            ContractFixtures.exchange("x", Self.feed, #"{ "status": 429, "headers": { "Retry-After": "5" }, "text": "<html>busy</html>" }"#)
        )
        #expect(finding.kind == .typeNeverCaptured && finding.actual == "a body that is not JSON")
    }
}
