import Foundation
import HTTPCore
import Testing

@testable import ScenarioKit

/// `--repeat` and transcript comparisons read JSON bodies as a backend does: key order is not
/// a difference, a different value is.
@Suite struct TranscriptComparisonTests {
    static let sent = #"[0.000s] #1 → POST /login  Content-Type: application/json  {"email":"a@example.com","password":"‹redacted#1›"}"#
    static let reordered =
        #"[0.000s] #1 → POST /login  Content-Type: application/json  {"password":"‹redacted#1›","email":"a@example.com"}"#

    @Test func bodiesThatDifferOnlyInKeyOrderAreTheSameLine() {
        #expect(TranscriptComparison.sameLine(Self.sent, Self.reordered))
        #expect(TranscriptComparison.firstDifference([Self.sent, "x"], [Self.reordered, "x"]) == nil)
    }

    @Test func aDifferentValueHeaderOrNonJSONTextIsADifference() {
        let otherEmail = Self.sent.replacingOccurrences(of: "a@example.com", with: "b@example.com")
        #expect(!TranscriptComparison.sameLine(Self.sent, otherEmail))
        let otherHeader = Self.reordered.replacingOccurrences(of: "application/json", with: "text/json")
        #expect(!TranscriptComparison.sameLine(Self.sent, otherHeader))
        #expect(!TranscriptComparison.sameLine("[0.000s] #1 ← 200 via a  b=1&c=2", "[0.000s] #1 ← 200 via a  c=2&b=1"))
        #expect(TranscriptComparison.firstDifference([Self.sent], [otherEmail]) == 0)
        #expect(TranscriptComparison.firstDifference([Self.sent], [Self.sent, "more"]) == 1)
    }

    /// Two runs whose login bodies differ only in key order count as the same transcript, and
    /// the transcript still shows the bytes the first run sent.
    @Test func repeatAcceptsAStackWhoseEncoderReordersKeys() async {
        let exchange = Exchange(
            id: "login", request: RequestMatcher(method: .post, path: .exact("/login")),
            reply: .response(HTTPResponse(status: .ok)), location: Build.here)
        let scenario = Build.scenario(exchanges: [exchange], steps: [Build.step(.perform(Build.call("login"), parallel: 1, expect: .ok))])
        let runner = ScenarioRunner(driver: ReorderingDriver(runs: RunCounter()))
        let result = await SuiteRunner.execute(scenario, runner: runner, times: 4)
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.transcriptText.contains(#"{"email":"a@example.com","password":"#), "\(result.transcript)")
    }

    /// The same stack sending a different value on a later run is still caught.
    @Test func repeatStillCatchesADifferentBody() async {
        let exchange = Exchange(
            id: "login", request: RequestMatcher(method: .post, path: .exact("/login")),
            reply: .response(HTTPResponse(status: .ok)), location: Build.here)
        let scenario = Build.scenario(exchanges: [exchange], steps: [Build.step(.perform(Build.call("login"), parallel: 1, expect: .ok))])
        let runner = ScenarioRunner(driver: ReorderingDriver(runs: RunCounter(), changeValue: true))
        let result = await SuiteRunner.execute(scenario, runner: runner, times: 2)
        #expect(result.status == .failed)
        #expect(result.failures.first?.message.contains("first differing transcript line is 1") == true, "\(result.explanation)")
    }
}

/// Counts sessions across the runs of one test.
final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    var value: Int { lock.withLock { count } }
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
