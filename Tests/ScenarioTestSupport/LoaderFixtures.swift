import Foundation
import ScenarioEngine
import Testing

/// Scenario texts and a driver description shared by the loader and schema tests.
///
/// Fixtures live in Swift rather than in a `Fixtures/` folder so the test target needs no
/// `resources:` (files the loader must find on disk are written to a temporary folder).
package enum LoaderFixtures {
    /// The actions of a made-up driver.
    package static let actions: [ActionSpec] = [
        ActionSpec("bootstrap", "Starts the app."),
        ActionSpec(
            "login", "Logs in.",
            arguments: [
                ArgumentSpec("email", .string, required: true, "The account's email."),
                ArgumentSpec("password", .string, required: true, "The password."),
            ]),
        ActionSpec(
            "request", "Sends an authenticated request.",
            arguments: [
                ArgumentSpec("method", .string, required: true, "The method.", choices: ["GET", "POST", "DELETE"]),
                ArgumentSpec("path", .string, required: true, "The path."),
                ArgumentSpec("body", .any, "A JSON body."),
                ArgumentSpec("retries", .integer, "How often to retry."),
            ]),
        ActionSpec("refresh", "Refreshes the tokens."),
    ]

    /// The `given` keys of the made-up driver.
    package static let givenKeys: [GivenSpec] = [
        GivenSpec("session", .object, "The stored session."),
        GivenSpec("connectivity", .string, "Online or not.", choices: ["online", "offline"]),
        GivenSpec("healthInterval", .string, "How often health is polled."),
    ]

    package static var loader: ScenarioLoader { ScenarioLoader(actions: actions, givenKeys: givenKeys) }

    /// A scenario that uses every part of the format.
    package static let fullScenario = #"""
        {
          "$schema": "../scenario.schema.json",
          "name": "Everything at once",
          "description": "Uses every key of the format.",
          "tags": ["blocked-user", "concurrency"],
          "given": {
            "clock": { "start": "2026-10-21T05:28:00Z" },
            "session": { "accessToken": "A1", "refreshToken": "R1" },
            "connectivity": "online"
          },
          "exchanges": [
            { "id": "feed-403",
              "request": { "method": "get", "path": "/feed", "headers": { "Authorization": "Bearer A1" },
                           "query": { "page": "2" } },
              "response": { "status": 403, "json": { "success": false, "error_code": "USER_BLOCKED" } },
              "times": 5, "release": { "whenPending": 5 }, "latency": "1.5s" },
            { "request": { "method": "POST", "pathPattern": "/users/{id}/block", "json": { "reason": "spam" } },
              "response": { "status": 204, "headers": { "Content-Type": "text/plain" }, "text": "ok" },
              "times": "unlimited", "after": "feed-403", "optional": true },
            { "id": "offline", "request": { "text": "ping" }, "fault": "notConnectedToInternet",
              "after": ["feed-403", "exchange-2"], "release": { "atStep": "held" } },
            { "id": "bytes", "request": {}, "response": { "status": 200, "base64": "AAEC/w==" }, "verify": { "skip": "a proxy's" } }
          ],
          "steps": [
            { "do": "bootstrap" },
            { "name": "held", "parallel": 5, "do": "request", "with": { "method": "GET", "path": "/feed" },
              "expect": { "error": "forbidden" } },
            { "group": [ { "do": "refresh", "expect": { "ok": true } },
                         { "do": "login", "with": { "email": "a@b.c", "password": "pw" },
                           "expect": { "error": { "code": "rateLimited", "retryAfter": 120 } } } ] },
            { "start": "request", "with": { "method": "POST", "path": "/x", "body": [1, 2] }, "as": "bg" },
            { "advance": "1h30m" },
            { "runUntilIdle": true },
            { "await": "bg", "expect": { "value": { "status": 200 } } },
            { "check": { "state": { "auth": "unauthenticated" } } }
          ],
          "expect": {
            "state": { "auth": "unauthenticated", "tokens": { "access": null } },
            "alerts": [ { "title": "Account Blocked" } ],
            "timeline": [ "loading", "authenticated" ],
            "requests": {
              "total": 5,
              "counts": { "feed-403": 5, "unmatched": 0 },
              "log": [ { "count": 5, "exchange": "feed-403", "method": "GET", "path": "/feed",
                         "headers": { "Authorization": "Bearer A1", "X-Debug": null }, "json": { "a": 1 } } ]
            }
          },
          "relax": { "unmatchedRequests": true, "unusedExchanges": false },
          "timeLimit": "2h"
        }
        """#

    /// A known-bad scenario: the issue it must raise, where, and whether the schema catches it too.
    package struct BadCase: CustomTestStringConvertible, Sendable {
        /// A short label.
        package var label: String
        /// The document.
        package var text: String
        /// A unique substring of `text` where the issue must point (line and column of its start).
        package var at: String
        /// Which occurrence of `at` (0 is the first).
        package var occurrence = 0
        /// The JSON path of the issue.
        package var path: String
        /// The message, exactly.
        package var message: String
        /// The hint, exactly (nil for none).
        package var hint: String?
        /// Whether the JSON Schema rejects the document too.
        package var schemaRejects: Bool
        /// How many issues the document has in all.
        package var issueCount = 1

        package var testDescription: String { label }
    }

    /// A minimal valid document with `exchanges`, `steps` and extra top-level members spliced in.
    /// A document of these parts; one that would check nothing (which is refused) gets an
    /// expectation that nothing is sent, after everything else so no line moves.
    package static func document(exchanges: String = "", steps: String = "", extra: String = "") -> String {
        let checksNothing = exchanges.isEmpty && steps.isEmpty && !extra.contains("\"expect\"")
        return """
            {
              "name": "n",
              "description": "d",\(extra.isEmpty ? "" : "\n  " + extra + ",")
              "exchanges": [\(exchanges)],
              "steps": [\(steps)]\(checksNothing ? ",\n  \"expect\": { \"requests\": { \"total\": 0 } }" : "")
            }
            """
    }

    package static let exchange = #"{ "id": "a", "request": { "path": "/a" }, "response": { "status": 200 } }"#

    package static let badCases: [BadCase] = [
        BadCase(
            label: "verify false without a reason", text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "verify": false }"#),
            at: "false", path: "$.exchanges[0].verify",
            message: #"'verify' takes {"skip": "why"}: an exchange left out of verification needs its reason"#,
            hint: #"such as {"skip": "a proxy's HTML page, not the backend's answer"}"#, schemaRejects: true),
        BadCase(
            label: "verify without skip", text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "verify": { } }"#),
            at: "{ }", path: "$.exchanges[0].verify",
            message: "missing required key 'skip' (the reason the exchange is left out of verification)", schemaRejects: true),
        BadCase(
            label: "verify with a blank reason",
            text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "verify": { "skip": "  " } }"#), at: #""  ""#,
            path: "$.exchanges[0].verify.skip", message: "'skip' must say why the exchange is left out", schemaRejects: true),
        BadCase(
            label: "verify with a misspelt skip",
            text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "verify": { "skp": "x" } }"#), at: #""skp""#,
            path: "$.exchanges[0].verify.skp", message: "unknown key 'skp' in 'verify'", hint: "did you mean 'skip'?",
            schemaRejects: true),
        BadCase(
            label: "misspelt key", text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "tiems": 2 }"#),
            at: #""tiems""#, path: "$.exchanges[0].tiems", message: "unknown key 'tiems' in exchange",
            hint: "did you mean 'times'?", schemaRejects: true),
        BadCase(
            label: "misspelt response is one issue", text: document(exchanges: #"{ "request": {}, "reponse": { "status": 200 } }"#),
            at: #""reponse""#, path: "$.exchanges[0].reponse", message: "unknown key 'reponse' in exchange",
            hint: "did you mean 'response'?", schemaRejects: true),
        BadCase(
            label: "state in a step's expect", text: document(steps: #"{ "do": "bootstrap", "expect": { "state": {} } }"#),
            at: #""state""#, path: "$.steps[0].expect.state", message: "unknown key 'state' in a step's 'expect'",
            hint:
                "a step's 'expect' takes one of ok, value, error; expectations such as 'state' go in the top-level 'expect' or a 'check' step",
            schemaRejects: true),
        BadCase(
            label: "times zero", text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "times": 0 }"#),
            at: "0 }", path: "$.exchanges[0].times", message: #"'times' must be an integer >= 1 or "unlimited"; got 0"#,
            schemaRejects: true),
        BadCase(
            label: "times misspelt unlimited",
            text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "times": "unlimted" }"#),
            at: #""unlimted""#, path: "$.exchanges[0].times",
            message: #"'times' must be an integer >= 1 or "unlimited"; got "unlimted""#, hint: "did you mean 'unlimited'?",
            schemaRejects: true),
        BadCase(
            label: "whenPending beyond times",
            text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "times": 2, "release": { "whenPending": 3 } }"#),
            at: "3 }", path: "$.exchanges[0].release.whenPending",
            message: "'whenPending' is 3, but this exchange serves 2 requests ('times'), so its answers are never released",
            hint: "make 'times' at least 3, or lower 'whenPending'", schemaRejects: false),
        BadCase(
            label: "wakes beyond exact integers", text: document(extra: #""limits": { "wakes": 1000000000000000000 }"#),
            at: "1000000000000000000", path: "$.limits.wakes",
            message: "'limits.wakes' must be an integer >= 1; got 1e+18, beyond the largest integer a scenario holds (9e15)",
            schemaRejects: false),
        BadCase(
            label: "status out of range", text: document(exchanges: #"{ "request": {}, "response": { "status": 700 } }"#),
            at: "700", path: "$.exchanges[0].response.status", message: "'status' must be an integer from 100 to 599; got 700",
            schemaRejects: true),
        BadCase(
            label: "status missing", text: document(exchanges: #"{ "request": {}, "response": { "text": "x" } }"#),
            at: #"{ "text""#, path: "$.exchanges[0].response",
            message: "missing required key 'status' (an integer from 100 to 599)", schemaRejects: true),
        BadCase(
            label: "unknown fault", text: document(exchanges: #"{ "request": {}, "fault": "timeout" }"#),
            at: #""timeout""#, path: "$.exchanges[0].fault",
            message:
                "unknown fault 'timeout'; faults are timedOut, notConnectedToInternet, networkConnectionLost, cannotConnectToHost, cancelled",
            hint: "did you mean 'timedOut'?", schemaRejects: true),
        BadCase(
            label: "response and fault",
            text: document(exchanges: #"{ "request": {}, "response": { "status": 200 }, "fault": "cancelled" }"#),
            at: #""fault""#, path: "$.exchanges[0].fault", message: "an exchange takes either 'response' or 'fault', not both",
            schemaRejects: true),
        BadCase(
            label: "bare number latency", text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "latency": 250 }"#),
            at: "250", path: "$.exchanges[0].latency",
            message: #"'latency' must be a duration string such as "250ms" or "60s"; got 250"#, hint: #"write "250ms" or "250s""#,
            schemaRejects: true),
        BadCase(
            label: "unknown duration unit",
            text: document(exchanges: #"{ "request": {}, "fault": "cancelled", "latency": "5d" }"#),
            at: #""5d""#, path: "$.exchanges[0].latency",
            message: #"'latency': unknown unit 'd' in duration "5d"; units are ms, s, m and h"#, schemaRejects: true),
        BadCase(
            label: "path and pattern",
            text: document(exchanges: #"{ "request": { "path": "/a", "pathPattern": "/a/{id}" }, "fault": "cancelled" }"#),
            at: #""pathPattern""#, path: "$.exchanges[0].request.pathPattern",
            message: "'request' takes either 'path' or 'pathPattern', not both", schemaRejects: true),
        BadCase(
            label: "two bodies",
            text: document(exchanges: #"{ "request": {}, "response": { "status": 200, "json": {}, "text": "x" } }"#),
            at: #""text""#, path: "$.exchanges[0].response.text",
            message: "a response takes at most one body: 'json' is already given, so remove 'text'", schemaRejects: true),
        BadCase(
            label: "invalid base64",
            text: document(exchanges: #"{ "request": {}, "response": { "status": 200, "base64": "%%%" } }"#),
            at: #""%%%""#, path: "$.exchanges[0].response.base64", message: "'base64' is not valid base64", schemaRejects: true),
        BadCase(
            label: "header value not a string",
            text: document(exchanges: #"{ "request": { "headers": { "X-Count": 2 } }, "fault": "cancelled" }"#),
            at: "2 }", path: "$.exchanges[0].request.headers.X-Count",
            message: "values in 'headers' must be strings; got 2 for 'X-Count'", hint: #"write it in quotes: "2""#,
            schemaRejects: true),
        BadCase(
            label: "reserved id", text: document(exchanges: #"{ "id": "unmatched", "request": {}, "fault": "cancelled" }"#),
            at: #""unmatched""#, path: "$.exchanges[0].id",
            message: "'unmatched' is reserved for requests no exchange served; pick another id", schemaRejects: false),
        BadCase(
            label: "duplicate exchange id", text: document(exchanges: exchange + ",\n    " + exchange),
            at: #""a""#, occurrence: 1, path: "$.exchanges[1].id", message: "duplicate exchange id 'a'; ids must be unique",
            hint: "first used at line 4, column 25", schemaRejects: false),
        BadCase(
            label: "after names unknown exchange",
            text: document(exchanges: exchange + #", { "request": {}, "fault": "cancelled", "after": "b" }"#),
            at: #""b""#, path: "$.exchanges[1].after", message: "'after' names unknown exchange 'b'", hint: "did you mean 'a'?",
            schemaRejects: false),
        BadCase(
            label: "atStep names no step",
            text: document(
                exchanges: #"{ "request": {}, "fault": "cancelled", "release": { "atStep": "hold" } }"#,
                steps: #"{ "name": "held", "do": "bootstrap" }"#),
            at: #""hold""#, path: "$.exchanges[0].release.atStep",
            message: #"'atStep' names no step: no step has "name": "hold""#, hint: "did you mean 'held'?", schemaRejects: false),
        BadCase(
            label: "unknown action", text: document(steps: #"{ "do": "logn" }"#),
            at: #""logn""#, path: "$.steps[0].do", message: "unknown action 'logn'", hint: "did you mean 'login'?",
            schemaRejects: false),
        BadCase(
            label: "unknown argument",
            text: document(steps: #"{ "do": "login", "with": { "email": "e", "pasword": "p" } }"#),
            at: #""pasword""#, path: "$.steps[0].with.pasword", message: "unknown key 'pasword' in 'with' of action 'login'",
            hint: "did you mean 'password'?", schemaRejects: false, issueCount: 2),
        BadCase(
            label: "argument of the wrong type",
            text: document(steps: #"{ "do": "request", "with": { "method": "GET", "path": 3 } }"#),
            at: "3 }", path: "$.steps[0].with.path", message: "argument 'path' of 'request' must be a string; got 3",
            schemaRejects: false),
        BadCase(
            label: "argument not among the choices",
            text: document(steps: #"{ "do": "request", "with": { "method": "GTE", "path": "/" } }"#),
            at: #""GTE""#, path: "$.steps[0].with.method",
            message: #"argument 'method' of 'request' must be one of "GET", "POST", "DELETE"; got "GTE""#,
            hint: "did you mean 'GET'?", schemaRejects: false),
        BadCase(
            label: "missing argument", text: document(steps: #"{ "do": "login", "with": { "email": "e" } }"#),
            at: #"{ "email""#, path: "$.steps[0].with", message: "action 'login' needs argument 'password' (The password.)",
            schemaRejects: false),
        BadCase(
            label: "unknown given key", text: document(extra: #""given": { "sesion": {} }"#),
            at: #""sesion""#, path: "$.given.sesion", message: "unknown key 'sesion' in 'given'", hint: "did you mean 'session'?",
            schemaRejects: false),
        BadCase(
            label: "given value not among the choices", text: document(extra: #""given": { "connectivity": "offlne" }"#),
            at: #""offlne""#, path: "$.given.connectivity",
            message: #"given key 'connectivity' must be one of "online", "offline"; got "offlne""#, hint: "did you mean 'offline'?",
            schemaRejects: false),
        BadCase(
            label: "bad clock start", text: document(extra: #""given": { "clock": { "start": "yesterday" } }"#),
            at: #""yesterday""#, path: "$.given.clock.start",
            message: #"'start' must be an ISO-8601 instant such as "2026-10-21T05:28:00Z"; got "yesterday""#, schemaRejects: true),
        BadCase(
            label: "clock start past what the clock holds",
            text: document(extra: #""given": { "clock": { "start": "2263-01-01T00:00:00Z" } }"#),
            at: #""2263-01-01T00:00:00Z""#, path: "$.given.clock.start",
            message: #"'start' must be between the years 1900 and 2199; got "2263-01-01T00:00:00Z""#,
            hint: "the virtual wall clock counts nanoseconds since 1970 in 64 bits", schemaRejects: true),
        BadCase(
            label: "duplicate step name",
            text: document(steps: #"{ "name": "x", "do": "bootstrap" }, { "name": "x", "advance": "1s" }"#),
            at: #""x", "advance""#, path: "$.steps[1].name", message: "duplicate step name 'x'; step names must be unique",
            hint: "first used at line 5, column 23", schemaRejects: false),
        BadCase(
            label: "await without start", text: document(steps: #"{ "start": "bootstrap", "as": "bg" }, { "await": "gb" }"#),
            at: #""gb""#, path: "$.steps[1].await", message: "no earlier 'start' step created handle 'gb'",
            hint: "did you mean 'bg'?", schemaRejects: false),
        BadCase(
            label: "two step kinds", text: document(steps: #"{ "do": "bootstrap", "advance": "1s" }"#),
            at: #""advance""#, path: "$.steps[0].advance",
            message:
                "a step takes exactly one of 'do', 'group', 'start', 'await', 'advance', 'runUntilIdle', 'check'; this one already has 'do'",
            hint: "split it into two steps", schemaRejects: true),
        BadCase(
            label: "key of another step kind", text: document(steps: #"{ "do": "bootstrap", "as": "h" }"#),
            at: #""as""#, path: "$.steps[0].as", message: "'as' does not belong in a 'do' step",
            hint: "a 'do' step takes: name, do, with, parallel, expect", schemaRejects: true),
        BadCase(
            label: "misspelt step kind", text: document(steps: #"{ "advnce": "1s" }"#),
            at: #""advnce""#, path: "$.steps[0].advnce", message: "unknown key 'advnce' in step", hint: "did you mean 'advance'?",
            schemaRejects: true),
        BadCase(
            label: "ok false", text: document(steps: #"{ "do": "bootstrap", "expect": { "ok": false } }"#),
            at: "false", path: "$.steps[0].expect.ok", message: "'ok' must be true; got false",
            hint: #"to expect a failure, write {"error": "code"}"#, schemaRejects: true),
        BadCase(
            label: "parallel zero", text: document(steps: #"{ "do": "bootstrap", "parallel": 0 }"#),
            at: "0 }", path: "$.steps[0].parallel", message: "'parallel' must be an integer from 1 to 1000; got 0", schemaRejects: true),
        BadCase(
            label: "runUntilIdle false", text: document(steps: #"{ "runUntilIdle": false }"#),
            at: "false", path: "$.steps[0].runUntilIdle", message: "'runUntilIdle' must be true; got false", schemaRejects: true),
        BadCase(
            label: "counts name unknown exchange",
            text: document(exchanges: exchange, extra: #""expect": { "requests": { "counts": { "b": 1 } } }"#),
            at: #""b""#, path: "$.expect.requests.counts.b", message: "'counts' names unknown exchange 'b'",
            hint: "did you mean 'a'?", schemaRejects: false),
        BadCase(
            label: "log names unknown exchange",
            text: document(exchanges: exchange, extra: #""expect": { "requests": { "log": [ { "exchange": "zzz" } ] } }"#),
            at: #""zzz""#, path: "$.expect.requests.log[0].exchange", message: "'exchange' names unknown exchange 'zzz'",
            hint: "exchange ids here: a, unmatched", schemaRejects: false),
        BadCase(
            label: "unknown expectation", text: document(extra: #""expect": { "alert": [] }"#),
            at: #""alert""#, path: "$.expect.alert", message: "unknown key 'alert' in 'expect'", hint: "did you mean 'alerts'?",
            schemaRejects: true),
        BadCase(
            label: "unknown relax key", text: document(extra: #""relax": { "unmatched": true }"#),
            at: #""unmatched""#, path: "$.relax.unmatched", message: "unknown key 'unmatched' in 'relax'",
            hint: "'relax' takes: unmatchedRequests, unusedExchanges", schemaRejects: true),
        BadCase(
            label: "zero time limit", text: document(extra: #""timeLimit": "0s""#),
            at: #""0s""#, path: "$.timeLimit", message: "'timeLimit' must be longer than zero", schemaRejects: false),
        BadCase(
            label: "missing name", text: #"{ "description": "d", "steps": [] }"#,
            at: "{", path: "$", message: "missing required key 'name'", schemaRejects: true),
        BadCase(
            label: "syntax error", text: "{\n  \"name\": \"n\",\n  \"steps\": [],\n}",
            at: "}", path: "$", message: "trailing comma before '}'; remove the comma", schemaRejects: false),
    ]
}
