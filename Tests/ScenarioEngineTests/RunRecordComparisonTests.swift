import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// `--repeat` compares whole runs, event by event: JSON bodies as a backend reads them (key order
/// is not a difference, a different value is), and nothing cut or shortened, whatever the length
/// of the run or of a line.
@Suite struct RunRecordComparisonTests {
    private func record(_ bodies: [String], headers: HTTPFields = [:]) -> RunRecord {
        var record = RunRecord()
        for body in bodies {
            let request = HTTPRequest(method: .post, path: "/login", headers: headers, body: Data(body.utf8))
            let number = record.sent(request, exchange: "login", at: .zero)
            record.answered(number, .response(HTTPResponse(status: .ok, body: Data(body.utf8))), at: .zero)
        }
        return record
    }

    static let sent = #"{"email":"a@example.com","password":"hunter22"}"#
    static let reordered = #"{"password":"hunter22","email":"a@example.com"}"#

    @Test func bodiesThatDifferOnlyInKeyOrderAreTheSameEvent() {
        #expect(record([Self.sent, "x"]).firstDifference(from: record([Self.reordered, "x"])) == nil)
    }

    @Test func aDifferentValueHeaderOrNonJSONTextIsADifference() {
        let otherEmail = Self.sent.replacingOccurrences(of: "a@example.com", with: "b@example.com")
        #expect(record([Self.sent]).firstDifference(from: record([otherEmail])) == 0)
        #expect(record([Self.sent]).firstDifference(from: record([Self.sent], headers: ["Content-Type": "text/json"])) == 0)
        #expect(record(["b=1&c=2"]).firstDifference(from: record(["c=2&b=1"])) == 0)
        #expect(record([Self.sent]).firstDifference(from: record([Self.sent, "more"])) == 2)
    }

    /// Two runs whose login bodies differ only in key order are the same run, and the transcript
    /// still shows the bytes the first run sent.
    @Test func repeatAcceptsAStackWhoseEncoderReordersKeys() async {
        let result = await ScenarioRunner(driver: ReorderingDriver(runs: RunCounter()), plan: RunPlan(mode: .repeated(4)))
            .run(Self.login(1))
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.transcriptText.contains(#"{"email":"a@example.com","password":"#), "\(result.transcript)")
    }

    /// The same stack sending a different value on a later run is still caught.
    @Test func repeatStillCatchesADifferentBody() async {
        let result = await ScenarioRunner(
            driver: ReorderingDriver(runs: RunCounter(), changeValue: true), plan: RunPlan(mode: .repeated(2))
        ).run(Self.login(1))
        #expect(result.status == .failed)
        #expect(result.failures.first?.message.contains("first differing event is 1 of 2") == true, "\(result.explanation)")
    }

    /// A stack that sends one random header in a run of 300 requests: found wherever that request
    /// is (the 150th, past what a report shows of a long transcript) and wherever the random part
    /// stands in its line (past character 400, where a report cuts a line).
    @Test(arguments: [(150, 0), (150, 600), (1, 0), (300, 2_000)])
    func aDifferenceAnywhereInALongRunIsFound(at position: Int, padding: Int) async {
        let driver = RandomHeaderDriver(requests: 300, randomAt: position, padding: padding)
        let result = await ScenarioRunner(driver: driver, plan: RunPlan(mode: .repeated(3))).run(Self.login(300))
        #expect(result.status == .failed, "run \(position) with \(padding) characters before its random part")
        let message = result.failures.first?.message ?? ""
        // Events: one request and one answer each, so request n is event 2n - 1.
        #expect(message.contains("first differing event is \(2 * position - 1) of 600"), "\(message)")
    }

    static func login(_ times: Int) -> Scenario {
        let exchange = Exchange(
            id: "login", request: RequestMatcher(method: .post, path: .exact("/login")),
            reply: .response(HTTPResponse(status: .ok)), times: times, location: Build.here)
        return Build.scenario(exchanges: [exchange], steps: [Build.step(.perform(Build.call("login"), parallel: 1, expect: .ok))])
    }
}

/// A stack whose `login` sends `requests` requests, one of which carries a header that changes
/// on every run, after `padding` characters of the same text.
struct RandomHeaderDriver: ScenarioDriver {
    let requests: Int
    let randomAt: Int
    let padding: Int
    var name: String { "RandomHeader" }
    var actions: [ActionSpec] { [ActionSpec("login", "POST /login, many times")] }
    var givenKeys: [GivenSpec] { [] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        RandomHeaderSession(transport: context.transport, driver: self)
    }
}

struct RandomHeaderSession: DriverSession {
    let transport: any HTTPTransport
    let driver: RandomHeaderDriver

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        for index in 1...driver.requests {
            var request = HTTPRequest(method: .post, path: "/login")
            if index == driver.randomAt {
                request.headers["X-Request-Note"] = String(repeating: "p", count: driver.padding) + UUID().uuidString
            }
            guard (try? await transport.send(request)) != nil else { return .error(["code": "transport"]) }
        }
        return .value(.null)
    }

    func snapshot() async -> JSONValue { [:] }
    func alerts() async -> [JSONValue] { [] }
    func timeline() async -> [JSONValue] { [] }
}

/// A stack whose login body lists its keys in another order on every other run, as a
/// `JSONEncoder` may; with `changeValue` the second run sends another email instead.
struct ReorderingDriver: ScenarioDriver {
    let runs: RunCounter
    var changeValue = false
    var name: String { "Reordering" }
    var actions: [ActionSpec] { [ActionSpec("login", "POST /login")] }
    var givenKeys: [GivenSpec] { [] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let run = runs.next()
        let body =
            changeValue
            ? #"{"email":"\#(run == 1 ? "a" : "b")@example.com","password":"hunter22"}"#
            : run.isMultiple(of: 2)
                ? #"{"password":"hunter22","email":"a@example.com"}"# : #"{"email":"a@example.com","password":"hunter22"}"#
        return LoginSession(transport: context.transport, body: Data(body.utf8))
    }
}

struct LoginSession: DriverSession {
    let transport: any HTTPTransport
    let body: Data

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        let request = HTTPRequest(
            method: .post, path: "/login", headers: [HTTPFields.Name.contentType: "application/json"], body: body)
        guard (try? await transport.send(request)) != nil else { return .error(["code": "transport"]) }
        return .value(.null)
    }

    func snapshot() async -> JSONValue { [:] }
    func alerts() async -> [JSONValue] { [] }
    func timeline() async -> [JSONValue] { [] }
}
