import Foundation
import Testing

@testable import ScenarioEngine

@Suite("JSON report")
struct JSONReportTests {
    private func parsed(_ run: RunResult = Fixtures.run) throws -> [String: Any] {
        let data = Data(JSONReport.render(run).utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func topLevelShape() throws {
        let report = try parsed()
        #expect(Set(report.keys) == ["schemaVersion", "succeeded", "wallTimeSeconds", "summary", "scenarios"])
        #expect(report["schemaVersion"] as? Int == 1)
        #expect(report["succeeded"] as? Bool == false)
        #expect(report["wallTimeSeconds"] as? Double == 0.055)
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary == ["total": 4, "passed": 1, "failed": 1, "errors": 1, "skipped": 1])
    }

    @Test func scenariosKeepInputOrderAndEveryField() throws {
        let scenarios = try #require(try parsed()["scenarios"] as? [[String: Any]])
        #expect(scenarios.map { $0["id"] as? String } == ["auth/login", "auth/refresh/coalesce", "broken", "auth/slow"])
        let fields: Set<String> = [
            "id", "name", "file", "classname", "tags", "status", "wallTimeSeconds", "virtualTimeSeconds", "schedules", "host",
            "errorMessage", "errorLocation", "steps", "transcript",
        ]
        for scenario in scenarios { #expect(Set(scenario.keys) == fields) }
        #expect(scenarios[0]["errorMessage"] is NSNull)
        #expect(scenarios[1]["status"] as? String == "failed")
        #expect(scenarios[1]["classname"] as? String == "auth.refresh")
        #expect(scenarios[1]["virtualTimeSeconds"] as? Int == 60)
        let location = try #require(scenarios[2]["errorLocation"] as? [String: Any])
        #expect(location["line"] as? Int == 3)
        #expect(location["path"] as? String == "$.exchanges[0].tims")
    }

    @Test func stepsAndAssertions() throws {
        let scenarios = try #require(try parsed()["scenarios"] as? [[String: Any]])
        let steps = try #require(scenarios[1]["steps"] as? [[String: Any]])
        #expect(Set(steps[0].keys) == ["index", "label", "passed", "location", "assertions"])
        #expect(steps[0]["passed"] as? Bool == false)
        let assertions = try #require(steps[1]["assertions"] as? [[String: Any]])
        #expect(Set(assertions[0].keys) == ["label", "passed", "message", "expected", "actual", "diff", "location"])
        #expect(assertions[0]["expected"] is NSNull)
        #expect((assertions[1]["diff"] as? String)?.contains("+   \"auth\": \"authenticated\"") == true)
    }

    @Test func stringsWithControlCharactersStayValidJSON() throws {
        let report = try parsed(RunResult(scenarios: [Fixtures.nasty], wallTime: .zero))
        let scenarios = try #require(report["scenarios"] as? [[String: Any]])
        #expect(scenarios[0]["name"] as? String == "Quotes \"q\" & <tags> 'a'\u{1}")
    }
}
