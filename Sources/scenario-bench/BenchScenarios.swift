import ScenarioKit

/// The scenarios the benchmark makes, written through the format's key names as every writer of
/// scenarios is (the action arguments and `given` keys are the drivers' own).
enum BenchScenarios {
    typealias Key = ScenarioKey

    /// `count` requests in a row through the minimal driver's `send`.
    static func sends(_ count: Int) -> JSONValue {
        scenario(
            "bench",
            exchanges: [exchange("ping", "/ping", times: count)],
            steps: [[Key.do: "send", Key.with: ["count": .number(Double(count))]]],
            expect: [Key.requests: [Key.total: .number(Double(count))]])
    }

    /// `count` steps of SessionKit's `request` action, signed in.
    static func sessionKitRequests(_ count: Int) -> JSONValue {
        var value = scenario(
            "bench",
            exchanges: [exchange("feed", "/feed", json: ["items": []], times: count)],
            steps: Array(repeating: [Key.do: "request", Key.with: ["path": "/feed"]], count: count),
            expect: [Key.requests: [Key.total: .number(Double(count))]])
        value[place: [.key(Key.given)]] = ["session": ["accessToken": "a", "refreshToken": "r", "user": ["id": "u1"]]]
        return value
    }

    /// A day of the minimal driver's 15 s polling.
    static let dayOfPolling = scenario("a day of polling", steps: [[Key.do: "poll"], [Key.advance: "24h"]])

    /// One request through the minimal driver's own URLSession.
    static let fetch = scenario("fetch", exchanges: [exchange("ping", "/ping")], steps: [[Key.do: "fetch"]])

    static func exchange(_ id: String, _ path: String, json: JSONValue? = nil, times: Int? = nil) -> JSONValue {
        var response: JSONValue = [Key.status: 200]
        if let json { response[place: [.key(Key.json)]] = json }
        var value: JSONValue = [
            Key.id: .string(id), Key.request: [Key.method: "GET", Key.path: .string(path)], Key.response: response,
        ]
        if let times { value[place: [.key(Key.times)]] = .number(Double(times)) }
        return value
    }

    static func scenario(_ name: String, exchanges: [JSONValue] = [], steps: [JSONValue], expect: JSONValue? = nil) -> JSONValue {
        var value: JSONValue = [Key.name: .string(name), Key.description: "benchmark"]
        if !exchanges.isEmpty { value[place: [.key(Key.exchanges)]] = .array(exchanges) }
        value[place: [.key(Key.steps)]] = .array(steps)
        if let expect { value[place: [.key(Key.expect)]] = expect }
        return value
    }
}
