import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// Credentials that stand only inside bodies that are not text: a MessagePack answer's
/// `access_token`, a protobuf map entry's `session_token`, a JWT in a protobuf string, a key in a
/// gRPC frame. Redaction reads the structure, finds them as it finds them in JSON, and masks each
/// in place by a placeholder of its own length: the body keeps its length and still reads as the
/// same structure. A body it cannot read is kept and counted, or left out when asked.
@Suite struct BinaryCredentialTests {
    /// 40 bytes: its MessagePack length byte is `(`, which a scan of printable runs would take as the token's first character.
    static let access = "acc-bin-Q7w2Lx9Zp3Wm4Tq8Rk3Ns6Hd1Vb5Yc0G"
    static let refresh = "ref-bin-Hk5Dq81Vn0"
    static let csrf = "csrf-bin-Tr4Ws9"
    /// 33 bytes: its protobuf length byte is `!`.
    static let session = "ses-bin-Mn52BvLo8UyE4Jp7Cx2Kw9Lq3"
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LWJpbiJ9.c2lnLWJpbi10b2tlbi12YWx1ZQ"
    static let apiKey = "key-bin-Zx31Pq77Rt"
    static let opaque = "opq-bin-Lm04Ks88Jd"
    static let canaries = [access, refresh, csrf, session, jwt, apiKey, opaque]

    /// A login answer: the tokens only here (the access token is not sent again in this capture).
    static let login = MessagePack.map([
        ("access_token", MessagePack.string(access)), ("refresh_token", MessagePack.string(refresh)), ("expires_in", [0xCD, 0x0E, 0x10]),
        ("user", MessagePack.map([("id", MessagePack.string("u-1")), ("name", MessagePack.string("Ana"))])),
        ("tokens", MessagePack.map([("csrf", MessagePack.string(csrf))])),
    ])
    /// A feed: a greeting, a map entry `session_token` → token, a JWT, a google.protobuf.Struct-like entry.
    static let feed =
        Protobuf.string(1, "Bom dia") + Protobuf.message(2, Protobuf.string(1, "session_token") + Protobuf.string(2, session))
        + Protobuf.string(3, jwt) + Protobuf.varint(4, 1)
    /// A gRPC answer: one frame holding a map entry `api_key` whose value is wrapped once, as Struct's Value wraps a string.
    static let sync = GRPC.frame(Protobuf.message(1, Protobuf.string(1, "api_key") + Protobuf.message(2, Protobuf.string(3, apiKey))))
    /// Bytes of no format: a credential's name, two framing bytes, its value, between random bytes.
    static let blob: [UInt8] =
        [0x07, 0xFF, 0xC1, 0x00] + Array("device_token".utf8) + [0x00, 0x12] + Array(opaque.utf8) + [0xFE, 0x00, 0x9C]

    static func entry(_ path: String, answer: [UInt8], type: String?) -> HARLog.Entry {
        HARLog.Entry(
            started: Date(timeIntervalSince1970: 0), time: 1, request: HARLog.Request(method: "GET", url: "https://api.example.com\(path)"),
            response: HARLog.Response(
                status: 200, headers: type.map { [HARLog.Field("Content-Type", $0)] } ?? [], body: Data(answer), mimeType: type))
    }

    static let log = HARLog(entries: [
        entry("/login", answer: login, type: "application/x-msgpack"), entry("/feed", answer: feed, type: "application/x-protobuf"),
        entry("/sync", answer: sync, type: "application/grpc+proto"), entry("/blob", answer: blob, type: "application/octet-stream"),
    ])

    // MARK: Reading

    @Test func theReaderReadsMessagePackProtobufAndGRPCAndNotOtherBytes() throws {
        let login = try #require(BinaryBodyReader.read(Self.login, contentType: "application/x-msgpack"))
        #expect(login.format == .messagePack)
        guard case .map(let members) = login.value else { throw Failure("not a map: \(login.value)") }
        #expect(members.first?.key == .text("access_token") && members.first?.value == .text(Self.access))
        // Without a content type: a map reads as MessagePack, a message with a string as protobuf.
        #expect(BinaryBodyReader.read(Self.login, contentType: nil)?.format == .messagePack)
        #expect(BinaryBodyReader.read(Self.feed, contentType: "application/octet-stream")?.format == .protobuf)
        #expect(BinaryBodyReader.read(Self.sync, contentType: "application/grpc")?.format == .grpc)
        #expect(BinaryBodyReader.read(Self.blob, contentType: "application/octet-stream") == nil)
        #expect(BinaryBodyReader.read(Self.blob, contentType: "application/x-msgpack") == nil)
        // A compressed gRPC frame is not read.
        #expect(BinaryBodyReader.read([1, 0, 0, 0, 1, 0x0A], contentType: "application/grpc") == nil)
    }

    @Test func hostileLengthsAndNestingNeverTrapOrLoop() {
        // A map of 2^32-1 members, a string longer than the body, nesting past the bound, a varint that never ends.
        let bodies: [[UInt8]] = [
            [0xDF, 0xFF, 0xFF, 0xFF, 0xFF, 0xA1, 0x61], [0xDB, 0x7F, 0xFF, 0xFF, 0xFF, 0x61], [UInt8](repeating: 0x91, count: 10_000),
            [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], [UInt8](repeating: 0x0A, count: 5_000),
            [0xCF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0x0A],
        ]
        for body in bodies {
            for type in ["application/x-msgpack", "application/x-protobuf", "application/grpc", "application/octet-stream"] {
                _ = BinaryBodyReader.read(body, contentType: type)
                var found = RedactionPolicy.Findings()
                RedactionPolicy().collect(binary: Data(body), contentType: type, into: &found)
            }
        }
    }

    // MARK: Finding and masking

    @Test func everyCredentialInsideTheBodiesIsFound() {
        var found = RedactionPolicy.Findings()
        for entry in Self.log.entries {
            RedactionPolicy().collect(body: entry.response?.body ?? Data(), contentType: entry.response?.mimeType, into: &found)
        }
        for canary in Self.canaries { #expect(found.values.contains(canary), "\(canary) not found") }
        #expect(!found.values.contains("Ana") && !found.values.contains("Bom dia") && !found.values.contains("u-1"))
    }

    @Test func redactionMasksThemInPlaceAndEveryBodyKeepsItsLengthAndStructure() throws {
        let (redacted, report) = TraceRedactor().redact(Self.log)
        #expect(report.unreadBodies == ["application/octet-stream": 1])
        for (before, after) in zip(Self.log.entries, redacted.entries) {
            let old = try #require(before.response?.body)
            let new = try #require(after.response?.body)
            #expect(new.count == old.count, "\(before.request.url)")
            for canary in Self.canaries {
                #expect(new.range(of: Data(canary.utf8)) == nil, "\(canary) in \(before.request.url)")
            }
            // Only the secrets' bytes changed.
            let changed = zip(old, new).filter { $0 != $1 }.count
            #expect(changed <= Self.canaries.map(\.utf8.count).reduce(0, +))
            if let structure = BinaryBodyReader.read(Array(old), contentType: before.response?.mimeType) {
                let again = try #require(BinaryBodyReader.read(Array(new), contentType: after.response?.mimeType))
                #expect(again.format == structure.format)
                #expect(Self.shape(again.value) == Self.shape(structure.value))
            }
        }
        // Still found in their places, now as placeholders of their own length.
        guard
            case .map(let members)? = BinaryBodyReader.read(
                Array(redacted.entries[0].response?.body ?? Data()), contentType: "application/x-msgpack")?.value
        else { throw Failure("the login answer no longer reads") }
        #expect(members[0].value == .text("redacted-token-1" + String(repeating: "x", count: 24)), "\(members[0].value)")
        #expect(members[3].value == .map([.init(key: .text("id"), value: .text("u-1")), .init(key: .text("name"), value: .text("Ana"))]))
    }

    @Test func aSecretInABinaryBodyHasTheSamePlaceholderEverywhere() throws {
        // The app decoded the token from the MessagePack answer and sends it back: a stack that
        // decodes the redacted answer sends what the redacted trace shows.
        var log = Self.log
        log.entries.append(
            HARLog.Entry(
                started: Date(timeIntervalSince1970: 1), time: 1,
                request: HARLog.Request(
                    method: "GET", url: "https://api.example.com/me", headers: [HARLog.Field("Authorization", "Bearer \(Self.access)")]),
                response: HARLog.Response(status: 200)))
        let redacted = TraceRedactor().redact(log).log
        let header = try #require(redacted.entries[4].request.headers.first?.value)
        guard
            case .map(let members)? = BinaryBodyReader.read(
                Array(redacted.entries[0].response?.body ?? Data()), contentType: "application/x-msgpack")?.value,
            case .text(let inBody) = members[0].value
        else { throw Failure("the login answer no longer reads") }
        #expect(header == "Bearer \(inBody)")
        #expect(inBody.utf8.count == Self.access.utf8.count)
    }

    @Test func aBodyThatCannotBeReadIsLeftOutWhenAsked() throws {
        var redactor = TraceRedactor()
        redactor.dropsUnreadBodies = true
        var log = Self.log
        let report = redactor.redact(&log)
        #expect(report.droppedBodies == ["application/octet-stream": 1])
        #expect(report.unreadBodies.isEmpty)
        #expect(log.entries[3].response?.body.isEmpty == true)
        #expect(log.entries[3].response?.status == 200, "the answer stays, without its bytes")
        #expect(report.droppedSummary == "1 binary body it could not read (1 application/octet-stream)")
    }

    /// Whatever the mask (a report's `‹redacted#1›` is longer than a short token), and whatever
    /// form the secret takes inside the bytes (its base64 too), a binary body keeps its length.
    @Test func aMaskOfAnyLengthKeepsABinaryBodysLength() {
        let short = "tk9QmX27"
        let body = Data(
            MessagePack.map([("t", MessagePack.string(short)), ("b", MessagePack.string(Data(Self.refresh.utf8).base64EncodedString()))]))
        let masked = SecretRedactor(secrets: [short, Self.refresh]).redact(binary: body)
        #expect(masked.count == body.count)
        #expect(masked.range(of: Data(short.utf8)) == nil)
        #expect(masked.range(of: Data(Data(Self.refresh.utf8).base64EncodedString().prefix(12).utf8)) == nil)
        #expect(BinaryBodyReader.read(Array(masked), contentType: "application/x-msgpack") != nil, "still MessagePack")
    }

    @Test func placeholdersFitEveryLengthAndReadAsPlaceholders() {
        #expect(TraceRedactor.placeholder(.token, 1, length: 22) == "redacted-token-1xxxxxx")
        #expect(TraceRedactor.placeholder(.token, 1, length: 10) == "r-token-1x")
        #expect(TraceRedactor.placeholder(.password, 12, length: 7) == "r-p-12x")
        #expect(TraceRedactor.placeholder(.token, 3, length: 4) == "r-3x")
        #expect(TraceRedactor.placeholder(.token, 12_345, length: 4) == "r-12")
        for length in 4...40 {
            let placeholder = TraceRedactor.placeholder(.apiKey, 7, length: length)
            #expect(placeholder.utf8.count == length)
            #expect(TraceRedactor.isPlaceholder(placeholder), "\(placeholder)")
        }
        #expect(!TraceRedactor.isPlaceholder("r-Hk5Dq81Vn0"))
        #expect(!TraceRedactor.isPlaceholder(Self.refresh))
        // A trace redacted twice is the same trace.
        let once = TraceRedactor().redact(Self.log).log
        #expect(TraceRedactor().redact(once).log == once)
    }

    /// The structure without its strings: what must survive masking.
    static func shape(_ value: BinaryBodyReader.Value) -> String {
        switch value {
        case .text(let text): "t\(text.utf8.count)"
        case .opaque: "o"
        case .map(let members): "{" + members.map { shape($0.key) + ":" + shape($0.value) }.joined(separator: ",") + "}"
        case .list(let values): "[" + values.map(shape).joined(separator: ",") + "]"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension Protobuf {
    /// A length-delimited field holding a nested message.
    static func message(_ field: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        varint(field << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }
}

/// gRPC's framing: an uncompressed flag, a big-endian length, the message.
enum GRPC {
    static func frame(_ message: [UInt8]) -> [UInt8] {
        let count = UInt32(message.count)
        return [0, UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + message
    }
}
