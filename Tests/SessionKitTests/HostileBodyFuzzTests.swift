import Foundation
import HTTPCore
import Testing

@testable import SessionKit

/// No byte from a server can crash the stack: seeded hostile bodies, at every status the
/// interpreter tells apart, around every nesting limit a JSON decoder may have.
@Suite("Hostile bodies")
struct HostileBodyFuzzTests {
    let interpreter = ResponseInterpreter(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    static let statuses: [HTTPStatus] = [.ok, .badRequest, .unauthorized, .forbidden, .tooManyRequests, .serviceUnavailable]

    /// Bracket and brace runs at every depth from 1 to 1,100, bare, closed, truncated or in an
    /// object, which is where Foundation's scanner used to trap (513 `[` as the last bytes).
    static func nestingBodies() -> [Data] {
        var bodies: [Data] = []
        for depth in 1...1_100 {
            let open = String(repeating: "[", count: depth)
            let braces = String(repeating: "{\"a\":", count: depth)
            bodies.append(Data(open.utf8))
            bodies.append(Data((open + String(repeating: "]", count: depth)).utf8))
            bodies.append(Data((open + "1" + String(repeating: "]", count: depth - 1)).utf8))
            bodies.append(Data((#"{"error_code":"#).utf8) + Data(open.utf8))
            bodies.append(Data(braces.utf8))
            bodies.append(Data((braces + "1" + String(repeating: "}", count: depth)).utf8))
            bodies.append(Data(("\"" + open + "\"").utf8))
        }
        return bodies
    }

    /// Random mutations of real answers: truncations, flipped and inserted bytes, invalid
    /// UTF-8, huge and odd numbers.
    static func mutatedBodies(count: Int, seed: UInt64) -> [Data] {
        let seeds = [
            #"{"success":false,"error_code":"USER_BLOCKED","message":"blocked"}"#,
            #"{"access_token":"a","refresh_token":"r","user":{"id":"u1","active":true}}"#,
            #"{"errors":[{"field":"email","message":"bad"}],"retry_after":3600}"#,
            #"[{"id":"1","blocked_me":true},{"id":"2"}]"#,
        ].map { Array($0.utf8) }
        let odd: [[UInt8]] = [
            [0xFF, 0xFE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], Array("1e999999".utf8), Array("-0.0e-99999".utf8),
            Array(String(repeating: "9", count: 400).utf8), Array("\\u0000".utf8), Array("\u{2028}".utf8), [0x00],
        ]
        var random = SplitMix64(seed: seed)
        var out: [Data] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            var bytes = seeds[random.below(seeds.count)]
            for _ in 0..<(1 + random.below(4)) {
                switch random.below(5) {
                case 0: bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
                case 1 where !bytes.isEmpty: bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
                case 2: bytes.insert(contentsOf: odd[random.below(odd.count)], at: random.below(bytes.count + 1))
                case 3:
                    bytes.insert(
                        contentsOf: Array(repeating: UInt8(ascii: random.below(2) == 0 ? "[" : "{"), count: random.below(700)),
                        at: random.below(bytes.count + 1))
                default: bytes += odd[random.below(odd.count)]
                }
            }
            out.append(Data(bytes))
        }
        return out
    }

    @Test func aHundredThousandHostileBodiesCrashNothing() async {
        let interpreter = self.interpreter
        // Minutes of CPU under the thread sanitizer: on a thread of its own, not on one of the
        // few dispatch workers that URLSession's queues share with every test running beside it.
        let (count, decoded) = await withCheckedContinuation { (done: CheckedContinuation<(Int, Int), Never>) in
            Thread {
                let bodies = Self.nestingBodies() + Self.mutatedBodies(count: 95_000, seed: 20_261_123)
                var decoded = 0
                for (index, body) in bodies.enumerated() {
                    let status = Self.statuses[index % Self.statuses.count]
                    _ = interpreter.interpret(HTTPResponse(status: status, body: body), authenticated: index % 2 == 0)
                    if JSONValue.decode(body) != nil { decoded += 1 }
                }
                done.resume(returning: (bodies.count, decoded))
            }.start()
        }
        #expect(count >= 100_000)
        // Some bodies are still JSON after mutation: the decoder was really exercised.
        #expect(decoded > 1_000)
    }

    @Test(arguments: [127, 128, 129, 511, 512, 513, 514])
    func deepBodiesAreRefusedBeforeTheDecoder(depth: Int) {
        let body = Data(String(repeating: "[", count: depth).utf8)
        #expect(JSONNesting.isTooDeep(body) == (depth > JSONNesting.limit))
        #expect(JSONValue.decode(body) == nil)
        let closed = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        #expect((JSONValue.decode(closed) == nil) == (depth > JSONNesting.limit))
    }

    @Test func bracketsInsideStringsDoNotCount() {
        let body = Data(("[\"" + String(repeating: "[", count: 1_000) + "\\\"\"]").utf8)
        #expect(!JSONNesting.isTooDeep(body))
        #expect(JSONValue.decode(body) != nil)
    }
}
