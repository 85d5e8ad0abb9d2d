import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// Binary bodies: what counts as text, how a body that is not is described, and that a secret the
/// capture or the run knows is masked inside MessagePack, protobuf and their base64 in every trace
/// output (`redact`, `export`, `import`), every other byte kept as it was.
@Suite struct BinaryBodyTests {
    /// A short token (a MessagePack `fixstr` of 10 bytes starts with 0xAA, which Latin-1 reads as
    /// the letter `ª`) and a long one; both are sent later as bearer tokens.
    static let short = "tk9QmX27pL"
    static let long = "tok-Lw83Jd02KsQp7Zx4"

    static let login = MessagePack.map([
        ("access_token", MessagePack.string(short)), ("name", MessagePack.string("Ana")), ("n", [0xCC, 0xFF]),
    ])
    /// Field 1 the token, field 6 a flag: the tag after the token is `0`, a digit.
    static let feed = Protobuf.string(1, short) + Protobuf.varint(6, 1)
    /// A JSON answer carrying a MessagePack blob in base64.
    static let wrapped = Data(#"{"blob":"\#(Data(MessagePack.map([("t", MessagePack.string(long))])).base64EncodedString())"}"#.utf8)
    static let picture = Data((0..<600).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })

    // MARK: What is text

    @Test func theRuleTellsBytesFromText() {
        #expect(BodyKind.isBinary(Self.login, contentType: nil))  // not UTF-8
        #expect(BodyKind.isBinary(Self.feed, contentType: nil))  // UTF-8, but control bytes
        #expect(BodyKind.isBinary(Array("plain words".utf8), contentType: "application/x-protobuf; proto=Feed"))
        #expect(BodyKind.isBinary(Array("{\"a\":1}\u{0}".utf8), contentType: "application/json"))
        #expect(!BodyKind.isBinary(Array("{\"a\":\"é\tb\"}\r\n".utf8), contentType: "application/json"))
        #expect(!BodyKind.isBinary(Array("<svg/>".utf8), contentType: "image/svg+xml"))
        #expect(!BodyKind.isBinary([UInt8](), contentType: "application/octet-stream"))
        #expect(BodyKind.isBinary(Array("GIF89a".utf8), contentType: "image/gif"))
    }

    @Test func aBinaryBodyIsDescribedBySizeTypeAndHashNeverRaw() {
        #expect(SHA256.hash(Array("abc".utf8)).prefix(4) == [0xBA, 0x78, 0x16, 0xBF])
        #expect(SHA256.hash([]).prefix(4) == [0xE3, 0xB0, 0xC4, 0x42])
        // Two blocks of padding: 56 bytes and more.
        #expect(SHA256.hash(Array(repeating: UInt8(ascii: "a"), count: 1_000)).prefix(4) == [0x41, 0xED, 0xEC, 0xE4])
        let body = [UInt8](repeating: 0xC1, count: 1_204)
        let summary = BodyKind.summary(of: body, contentType: "application/x-msgpack; charset=binary")
        #expect(summary.hasPrefix("‹binary 1,204 bytes, application/x-msgpack, sha256 "), "\(summary)")
        #expect(summary.hasSuffix("…›") && summary.count == "‹binary 1,204 bytes, application/x-msgpack, sha256 12345678…›".count)
        #expect(BodyKind.summary(of: Self.feed, contentType: nil).hasPrefix("‹binary \(Self.feed.count) bytes, sha256 "))
        #expect(!BodyKind.summary(of: Self.feed, contentType: nil).contains(Self.short))
    }

    // MARK: redact

    static func entry(_ method: String, _ path: String, bearer: String? = nil, body: String? = nil, answer: Data, type: String)
        -> HARLog.Entry
    {
        HARLog.Entry(
            started: Date(timeIntervalSince1970: 0), time: 1,
            request: HARLog.Request(
                method: method, url: "https://h\(path)", headers: bearer.map { [HARLog.Field("Authorization", "Bearer \($0)")] } ?? [],
                body: body, mimeType: body == nil ? nil : "application/x-protobuf"),
            response: HARLog.Response(status: 200, headers: [HARLog.Field("Content-Type", type)], body: answer, mimeType: type))
    }

    @Test func redactMasksKnownSecretsInsideBinaryBodiesAndKeepsEveryOtherByte() throws {
        let log = HARLog(entries: [
            Self.entry("POST", "/login", answer: Data(Self.login), type: "application/x-msgpack"),
            Self.entry("GET", "/feed", bearer: Self.short, answer: Data(Self.feed), type: "application/x-protobuf"),
            Self.entry(
                "POST", "/sync", bearer: Self.short,
                body: String(decoding: Protobuf.string(2, Self.short) + Protobuf.varint(3, 1), as: UTF8.self),
                answer: Self.wrapped, type: "application/json"),
            Self.entry("GET", "/me", bearer: Self.long, answer: Self.picture, type: "application/octet-stream"),
        ])
        let redacted = TraceRedactor().redact(log).log
        let shortMask = try #require(redacted.entries[1].request.headers.first?.value.dropFirst("Bearer ".count))
        let bodies =
            redacted.entries.compactMap { $0.response?.body } + redacted.entries.compactMap { $0.request.body.map { Data($0.utf8) } }
        for body in bodies {
            #expect(body.range(of: Data(Self.short.utf8)) == nil && body.range(of: Data(Self.long.utf8)) == nil)
        }
        // Byte for byte what it was, but for the token.
        #expect(redacted.entries[0].response?.body == Data(Self.login).replacing(Data(Self.short.utf8), with: Data(shortMask.utf8)))
        #expect(redacted.entries[1].response?.body == Data(Self.feed).replacing(Data(Self.short.utf8), with: Data(shortMask.utf8)))
        #expect(redacted.entries[3].response?.body == Self.picture)
        // Inside the base64 of a blob in JSON.
        let blob = try #require(JSONValue.parse(redacted.entries[2].response?.body ?? Data())?["blob"]?.stringValue)
        #expect(!blob.contains(Data(MessagePack.map([("t", MessagePack.string(Self.long))])).base64EncodedString()))
    }

    @Test func theRunsOwnSecretNamesAreMaskedInBinaryAnswersToo() {
        let key = "dk-7Hq2Lx9Zp3Wm"
        let log = HARLog(entries: [
            Self.entry(
                "POST", "/device", body: #"{"device_key":"\#(key)"}"#, answer: Data(MessagePack.map([("k", MessagePack.string(key))])),
                type: "application/x-msgpack")
        ])
        #expect(TraceRedactor().redact(log).log.entries[0].response?.body.range(of: Data(key.utf8)) != nil)
        let named = TraceRedactor(extraKeys: ["device_key"]).redact(log).log
        #expect(named.entries[0].response?.body.range(of: Data(key.utf8)) == nil)
        #expect(named.entries[0].request.body?.contains(key) == false)
    }

    /// A value only the scenario names (an expected state's token), in a binary answer no request repeats.
    @Test func aSecretTheRunKnowsIsMaskedInABinaryAnswer() throws {
        let token = "tok-state-8Kd2Pq71"
        let scenario = try Rules.load(
            Rules.document(steps: #"{ "do": "now" }"#, expect: #"{ "state": { "token": "\#(token)" } }"#)
        ).get()
        let known = RedactionPolicy.knownSecrets(of: scenario, driver: RuleDriver())
        #expect(known.map(\.value) == [token])
        let log = HARLog(entries: [
            Self.entry("GET", "/state", answer: Data(MessagePack.map([("v", MessagePack.string(token))])), type: "application/x-msgpack")
        ])
        #expect(TraceRedactor().redact(log).log.entries[0].response?.body.range(of: Data(token.utf8)) != nil)
        let redacted = TraceRedactor(extraKeys: [], known: known).redact(log).log
        #expect(redacted.entries[0].response?.body.range(of: Data(token.utf8)) == nil)
    }

    // MARK: export and import

    /// A run that serves MessagePack, protobuf and arbitrary bytes; the token of the first is sent as a bearer token.
    static let scenario = #"""
        {
          "name": "binary answers", "description": "MessagePack, protobuf and arbitrary bytes",
          "exchanges": [
            { "id": "login", "request": { "method": "POST", "path": "/login" },
              "response": { "status": 200, "headers": { "Content-Type": "application/x-msgpack" }, "base64": "\#(Data(login).base64EncodedString())" } },
            { "id": "feed", "request": { "path": "/feed", "headers": { "Authorization": "Bearer \#(short)" } },
              "response": { "status": 200, "headers": { "Content-Type": "application/x-protobuf" }, "base64": "\#(Data(feed).base64EncodedString())" } },
            { "id": "picture", "request": { "path": "/picture" },
              "response": { "status": 200, "headers": { "Content-Type": "application/octet-stream" }, "base64": "\#(picture.base64EncodedString())" } }
          ],
          "steps": [
            { "do": "send", "with": { "method": "POST", "path": "/login" } },
            { "do": "send", "with": { "path": "/feed", "headers": { "Authorization": "Bearer \#(short)" } } },
            { "do": "send", "with": { "path": "/picture" } }
          ],
          "expect": { "requests": { "total": 3 } }
        }
        """#

    /// Every report's transcript shows a binary body as its size, type and hash, never its bytes,
    /// and the hash is of the masked bytes: the token is in no report, in any form.
    @Test func reportsShowBinaryBodiesBySizeTypeAndHash() async throws {
        var scenario = try Rules.load(Self.scenario).get()
        scenario.expect.requests?.total = 4  // fails, so that every report carries the transcript
        let result = await ScenarioRunner(driver: RuleDriver()).run(scenario)
        #expect(result.status == .failed)
        let lines = result.transcript.filter { $0.contains("←") }
        #expect(lines.count == 3)
        #expect(lines[0].contains("via login  ‹binary \(Self.login.count) bytes, application/x-msgpack, sha256 "), "\(lines)")
        #expect(lines[2].contains("‹binary 600 bytes, application/octet-stream, sha256 "), "\(lines)")
        let masked = SecretRedactor(secrets: [Self.short]).redact(binary: Data(Self.login))
        #expect(lines[0].contains(BodyKind.summary(of: Self.login, contentType: "application/x-msgpack", hashing: Array(masked))))
        let run = RunResult(scenarios: [result], wallTime: .zero)
        for report in [HTMLReport.render(run), JSONReport.render(run), JUnitReport.render(run), ConsoleReport().render(run)] {
            #expect(!report.contains(Self.short))
            #expect(!report.contains(Data(Self.short.utf8).base64EncodedString().prefix(12)))
            #expect(!report.contains("Ana"), "a binary body's text is not shown")
        }
    }

    @Test func exportWritesBinaryAnswersBackByteExactAndMasksTheToken() async throws {
        let (result, record) = await ScenarioRunner(driver: RuleDriver()).runReporting(try Rules.load(Self.scenario).get())
        let trace = record.har()
        #expect(result.status == .passed, "\(result.explanation)")
        // --keep-secrets: every answer as it was served.
        let kept = try HARReader(file: "kept.har").read(Data(trace.harText().utf8))
        #expect(kept.entries.map { $0.response?.body } == [Data(Self.login), Data(Self.feed), Self.picture])
        // Redacted: the token nowhere in the file, as is or in base64; every other byte as served.
        let text = TraceRedactor().redact(trace).log.harText()
        #expect(!text.contains(Self.short) && !text.contains(Data(Self.short.utf8).base64EncodedString().prefix(12)))
        let redacted = try HARReader(file: "export.har").read(Data(text.utf8))
        let mask = try #require(redacted.entries[1].request.headers.first { $0.name == "Authorization" }?.value.dropFirst("Bearer ".count))
        #expect(redacted.entries[0].response?.body == Data(Self.login).replacing(Data(Self.short.utf8), with: Data(mask.utf8)))
        #expect(redacted.entries[1].response?.body == Data(Self.feed).replacing(Data(Self.short.utf8), with: Data(mask.utf8)))
        #expect(redacted.entries[2].response?.body == Self.picture)
        // Bytes travel as base64, never as JSON-escaped control characters.
        #expect(text.components(separatedBy: #""encoding": "base64""#).count == 4)

        // Import: the scenario's base64 answers hold no token either.
        let imported = try TraceImporter(spec: TraceImportSpec(requestAction: "send")).importScenario(
            from: redacted, file: "export.har", actions: RuleDriver.actionSpecs, givenKeys: []
        ).text
        #expect(!imported.contains(Self.short))
        let scenario = try #require(JSONValue.parse(Data(imported.utf8)))
        let answers = scenario["exchanges"]?.arrayValue?.compactMap { $0["response"]?["base64"]?.stringValue } ?? []
        #expect(answers.count == 3)
        for answer in answers {
            #expect(Data(base64Encoded: answer)?.range(of: Data(Self.short.utf8)) == nil)
        }
    }
}

/// MessagePack as its spec writes it, enough for the tests: maps, strings, raw bytes.
enum MessagePack {
    static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return (bytes.count < 32 ? [0xA0 | UInt8(bytes.count)] : [0xD9, UInt8(bytes.count)]) + bytes
    }

    static func map(_ members: [(String, [UInt8])]) -> [UInt8] {
        [0x80 | UInt8(members.count)] + members.flatMap { string($0.0) + $0.1 }
    }
}

/// Protocol buffers' wire format: length-delimited and varint fields.
enum Protobuf {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return bytes
    }

    static func string(_ field: UInt64, _ text: String) -> [UInt8] {
        varint(field << 3 | 2) + varint(UInt64(text.utf8.count)) + Array(text.utf8)
    }

    static func varint(_ field: UInt64, _ value: UInt64) -> [UInt8] { varint(field << 3) + varint(value) }
}

extension Data {
    /// Every occurrence of `part` replaced.
    fileprivate func replacing(_ part: Data, with replacement: Data) -> Data {
        var out = Data()
        var rest = self[...]
        while let range = rest.range(of: part) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
