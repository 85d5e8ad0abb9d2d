import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// `Invariant.concern(_:)`, which lets a watching recorder check each rule over only the requests
/// it reads, and not at all while nothing arms it: over hundreds of random records of refreshes,
/// sign-ins, refusals, blocks and waits, every traffic rule of SessionKit's `invariants.json`
/// breaks exactly as often, naming the same requests, on the requests it concerns as on the whole
/// record, and never in a record where no request arms it.
@Suite struct InvariantRelevanceTests {
    static let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/invariants.json")

    /// xorshift64*: the same records on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
        }
    }

    /// A record of `count` requests from a small alphabet, answered in random order, some never.
    static func record(_ count: Int, _ generator: inout Generator) -> RunRecord {
        let access = ["a1", "a2", "a3"]
        let refresh = ["r1", "r2", "r3"]
        var requests: [RunRecord.Request] = []
        var away: [Int] = []
        var order = 0
        var now = Duration.zero
        func answer(_ index: Int) {
            order += 1
            let path = requests[index].request.path
            let (status, body, headers): (Int, String, HTTPFields) =
                switch generator.next(8) {
                case 0: (401, #"{"error_code":"TOKEN_EXPIRED"}"#, [:])
                case 1: (403, #"{"error_code":"\#(["USER_BLOCKED", "USER_INACTIVE"][generator.next(2)])"}"#, [:])
                case 2: ([429, 503][generator.next(2)], "{}", [HTTPFields.Name.retryAfter: "\(generator.next(4))"])
                default:
                    path == "/auth/refresh" || path == "/auth/login"
                        ? (
                            200,
                            #"{"data":{"access_token":"\#(access[generator.next(3)])","refresh_token":"\#(refresh[generator.next(3)])"}}"#,
                            [:]
                        )
                        : (200, #"{"data":{}}"#, [:])
                }
            requests[index].answer = RunRecord.Answer(status: status, headers: headers, body: Data(body.utf8), at: now, order: order)
        }
        while requests.count < count || !away.isEmpty {
            now += .milliseconds(generator.next(1_500))
            if requests.count < count, away.isEmpty || generator.next(3) > 0 {
                let request: HTTPRequest =
                    switch generator.next(5) {
                    case 0:
                        HTTPRequest(
                            method: .post, path: "/auth/refresh", body: Data(#"{"refresh_token":"\#(refresh[generator.next(3)])"}"#.utf8))
                    case 1: HTTPRequest(method: .post, path: "/auth/login", body: Data(#"{"email":"a@b.c","password":"pw-123456"}"#.utf8))
                    case 2:
                        HTTPRequest(method: .post, path: "/auth/logout", headers: ["Authorization": "Bearer \(access[generator.next(3)])"])
                    default: HTTPRequest(method: .get, path: "/feed", headers: ["Authorization": "Bearer \(access[generator.next(3)])"])
                    }
                order += 1
                requests.append(RunRecord.Request(number: requests.count + 1, request: request, at: now, order: order))
                away.append(requests.count - 1)
            } else if generator.next(10) == 0 {
                away.remove(at: generator.next(away.count))  // never answered
            } else {
                answer(away.remove(at: generator.next(away.count)))
            }
        }
        return RunRecord(requests: requests)
    }

    @Test func everyTrafficRuleBreaksTheSameWayOnTheRequestsItConcerns() throws {
        let invariants = try InvariantFiles.load(contentsOf: Self.rules.path).get().filter { $0.needsTheApp == nil }
        #expect(invariants.count == 9)
        var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var broken: [String: Int] = [:]
        var unarmed: [String: Int] = [:]
        for _ in 0..<400 {
            let record = Self.record(10 + generator.next(30), &generator)
            for invariant in invariants {
                let whole = InvariantChecker.check([invariant], record).map(\.requests)
                let concerned = record.requests.filter(invariant.mayConcern)
                let numbers = concerned.map(\.number)
                let part = RunRecord(
                    requests: concerned.enumerated().map { index, request in
                        var renumbered = request
                        renumbered.number = index + 1
                        return renumbered
                    })
                let fromPart = InvariantChecker.check([invariant], part).map { $0.requests.map { numbers[$0 - 1] } }
                #expect(fromPart == whole, "\(invariant.id)")
                if !record.requests.contains(where: { invariant.concern($0) == .arms }) {
                    #expect(whole.isEmpty, "\(invariant.id) broke with nothing to arm it")
                    unarmed[invariant.id, default: 0] += 1
                }
                broken[invariant.id, default: 0] += whole.count
            }
        }
        // Each rule broke often enough for the comparison to mean something.
        for invariant in invariants { #expect(broken[invariant.id, default: 0] >= 10, "\(invariant.id): \(broken)") }
        // And records where a rule had nothing to arm it came up for the rules that need arming.
        #expect(unarmed.values.reduce(0, +) >= 100, "\(unarmed)")
    }
}
