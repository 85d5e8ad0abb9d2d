@testable import ScenarioEngine

/// Hand-built result trees for report tests.
enum Fixtures {
    static func location(_ file: String, _ line: Int, _ column: Int, _ path: String = "$") -> ScenarioLocation {
        ScenarioLocation(file: file, line: line, column: column, path: path)
    }

    static let passed = ScenarioResult(
        id: "auth/login", name: "Login works", file: "Scenarios/auth/login.json", tags: ["auth", "smoke"],
        status: .passed,
        steps: [
            StepResult(
                index: 1, label: "do login", location: location("Scenarios/auth/login.json", 5, 5),
                assertions: [AssertionResult(label: "outcome", passed: true)])
        ],
        transcript: ["→ POST /login", "← 200 login"], wallTime: .milliseconds(12), virtualTime: .seconds(1)
    )

    static let failed = ScenarioResult(
        id: "auth/refresh/coalesce", name: "Refresh is coalesced", file: "Scenarios/auth/refresh/coalesce.json",
        tags: ["auth"], status: .failed,
        steps: [
            StepResult(
                index: 1, label: "do request ×5", location: location("Scenarios/auth/refresh/coalesce.json", 14, 7),
                assertions: [
                    AssertionResult(
                        label: "outcome of copy 3", passed: false, message: "expected error forbidden, got a value",
                        expected: "{\"error\":\"forbidden\"}", actual: "{\"value\":null}",
                        location: location("Scenarios/auth/refresh/coalesce.json", 16, 9, "$.steps[0].expect"))
                ]),
            StepResult(
                index: 2, label: "expect", location: location("Scenarios/auth/refresh/coalesce.json", 20, 3),
                assertions: [
                    AssertionResult(label: "requests.total", passed: true),
                    AssertionResult(
                        label: "state", passed: false, message: "state differs",
                        expected: "{\n  \"auth\": \"unauthenticated\"\n}", actual: "{\n  \"auth\": \"authenticated\"\n}",
                        diff: "  {\n-   \"auth\": \"unauthenticated\"\n+   \"auth\": \"authenticated\"\n  }"),
                ]),
        ],
        transcript: ["→ GET /feed Authorization: Bearer ‹redacted›", "← 403 feed-403", "→ POST /refresh"],
        wallTime: .milliseconds(40), virtualTime: .seconds(60)
    )

    static let errored = ScenarioResult(
        id: "broken", name: "broken", file: "Scenarios/broken.json", status: .error,
        errorMessage:
            "Scenarios/broken.json:3:5: error: unknown key 'tims' (at $.exchanges[0].tims) — did you mean 'times'?\nScenarios/broken.json:1:1: error: missing required key 'description' (at $)",
        errorLocation: location("Scenarios/broken.json", 3, 5, "$.exchanges[0].tims")
    )

    static let skipped = ScenarioResult(
        id: "auth/slow", name: "Slow login", file: "Scenarios/auth/slow.json", tags: ["slow"], status: .skipped,
        errorMessage: "has none of the tags smoke"
    )

    /// Names and messages full of characters XML must escape or cannot carry.
    static let nasty = ScenarioResult(
        id: "edge/nasty", name: "Quotes \"q\" & <tags> 'a'\u{1}", file: "Scenarios/edge/nasty.json", status: .failed,
        steps: [
            StepResult(
                index: 1, label: "expect", location: nil,
                assertions: [
                    AssertionResult(
                        label: "alerts", passed: false, message: "got <b>&amp;</b> ]]> \u{0}\u{B}bell\u{7}\r\nnext", expected: "a\tb",
                        actual: "%")
                ])
        ],
        transcript: ["line with \u{1B}[31mescape\u{1B}[0m and ü ✓ 𝄞"], wallTime: .milliseconds(1_234)
    )

    static let run = RunResult(scenarios: [passed, failed, errored, skipped], wallTime: .milliseconds(55))
}
