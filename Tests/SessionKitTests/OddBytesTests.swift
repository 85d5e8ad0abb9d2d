import Foundation
import HTTPCore
import Testing

@testable import SessionKit

/// Whatever bytes and status a server (or a proxy in front of it) sends, the stack answers
/// with a verdict: it never crashes, and a failing status is never taken for success.
@Suite("Odd bytes from the server")
struct OddBytesTests {
    /// Fragments that look like the envelope, so mutations reach deep into the decoder.
    static let fragments = [
        #"{"success":false,"error_code":"TOKEN_EXPIRED","errors":[{"field":"email","message":"x"}]}"#,
        #"{"success":true,"data":{"id":"u1","active":false,"is_deleted":"yes"}}"#,
        #"{"errors":[null,1,{"message":{}}]}"#, "\u{FEFF}{", "<html>502</html>", "[[[[[[[[", "\u{0}\u{1}\u{2}", "1e999999",
    ]

    @Test func randomBodiesAndStatusesAlwaysGetAVerdict() {
        var random = SplitMix64(seed: 42)
        let interpreter = ResponseInterpreter(now: { Date(timeIntervalSince1970: 1_800_000_000) })
        for _ in 0..<3000 {
            var bytes = [UInt8](Self.fragments.randomElement(using: &random)?.utf8 ?? "".utf8)
            for _ in 0..<Int.random(in: 0...6, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) {
                bytes += (0..<Int.random(in: 0...32, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            let status = HTTPStatus(code: Int.random(in: 0...999, using: &random))
            let headers: HTTPFields = [HTTPFields.Name.retryAfter: String(decoding: bytes.prefix(12), as: UTF8.self)]
            let verdict = interpreter.interpret(
                HTTPResponse(status: status, headers: headers, body: Data(bytes)), authenticated: Bool.random(using: &random))
            if status.kind != .successful, case .success = verdict {
                Issue.record("status \(status.code) was taken for success")
            }
        }
    }
}
