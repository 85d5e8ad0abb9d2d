import Foundation

/// Reads the structure of a body that is not text, so that redaction can find credentials in it
/// as it does in JSON: MessagePack (maps with string keys), protocol buffers' wire format (nested
/// messages, strings, map entries) and gRPC frames of them, and UTF-8 text that holds control bytes.
/// Anything else (an image, compressed or encrypted bytes, a format it does not know) is not
/// read: redaction then finds only what stands in its printable runs and what the capture shows
/// elsewhere, and the commands say such a body was kept unread.
///
/// Reading is bounded: every item takes at least one byte, nesting stops at ``maximumDepth``, and
/// no length is trusted past the bytes there are. Nothing a server sends can make it trap or loop.
package enum BinaryBodyReader {
    /// A value read from the bytes.
    package indirect enum Value: Sendable, Hashable {
        /// A string (UTF-8 without control bytes but tab and line breaks).
        case text(String)
        /// Bytes that are not such text, a number, a flag or nothing: no credential by itself.
        case opaque
        /// A MessagePack map, members in order.
        case map([Member])
        /// A MessagePack array, a protobuf message's fields in order, or the values of a stream.
        case list([Value])

        /// A map member.
        package struct Member: Sendable, Hashable {
            package var key: Value
            package var value: Value
        }
    }

    /// The formats it reads.
    package enum Format: String, Sendable {
        case messagePack = "MessagePack"
        case protobuf = "protobuf"
        case grpc = "gRPC"
        case text = "text with control bytes"
    }

    /// Deeper nesting than this is not read further (its bytes still are, as printable runs).
    static let maximumDepth = 32
    /// Bytes read of one body; a larger body's rest is only scanned for printable runs.
    static let maximumBytes = 8 << 20

    /// The body's structure, when it is one of the formats: by its content type when that names
    /// one, else the first that reads the whole body and holds a map, a message with a string or
    /// text; `nil` when none does.
    package static func read(_ body: [UInt8], contentType: String?) -> (format: Format, value: Value)? {
        let bytes = body.count > maximumBytes ? Array(body.prefix(maximumBytes)) : body
        let type = contentType?.lowercased() ?? ""
        if type.contains("msgpack") || type.contains("messagepack") {
            return MessagePackReader.readAll(bytes).map { (.messagePack, $0) }
        }
        if type.contains("grpc") { return ProtobufReader.readFrames(bytes).map { (.grpc, $0) } }
        if type.contains("protobuf") || type.hasSuffix("+proto") || type.contains("x-proto") {
            return ProtobufReader.readMessage(bytes, depth: 0).map { (.protobuf, .list($0)) }
        }
        if let value = MessagePackReader.readAll(bytes), case .map = value { return (.messagePack, value) }
        if let fields = ProtobufReader.readMessage(bytes, depth: 0), fields.contains(where: { $0.holdsText(atLeast: 4) }) {
            return (.protobuf, .list(fields))
        }
        if isUTF8(bytes[...]) { return (.text, .text(String(decoding: bytes, as: UTF8.self))) }
        return nil
    }

    /// `bytes` as text when they are UTF-8 without control bytes but tab and line breaks.
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }), isUTF8(bytes) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are well-formed UTF-8.
    static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        // ASCII, most of what is checked, needs no decoder.
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The printable ASCII runs of `bytes` of at least `minimum` bytes, each with where it starts:
    /// the words a body that is not read still shows.
    static func printableRuns(_ bytes: [UInt8], minimum: Int) -> [(start: Int, text: String)] {
        var runs: [(Int, String)] = []
        var start = 0
        for index in 0...bytes.count {
            let printable = index < bytes.count && bytes[index] >= 0x20 && bytes[index] < 0x7F
            if printable { continue }
            if index - start >= minimum { runs.append((start, String(decoding: bytes[start..<index], as: UTF8.self))) }
            start = index + 1
        }
        return runs
    }
}

extension BinaryBodyReader.Value {
    /// Whether a string of `count` bytes or more stands in it, at any depth.
    func holdsText(atLeast count: Int) -> Bool {
        switch self {
        case .text(let text): text.utf8.count >= count
        case .opaque: false
        case .map(let members): members.contains { $0.key.holdsText(atLeast: count) || $0.value.holdsText(atLeast: count) }
        case .list(let values): values.contains { $0.holdsText(atLeast: count) }
        }
    }

    /// The first string in it, looking `depth` levels down (a protobuf `Value` wraps its string once).
    func firstText(depth: Int = 2) -> String? {
        switch self {
        case .text(let text): return text
        case .list(let values) where depth > 0: return values.lazy.compactMap { $0.firstText(depth: depth - 1) }.first
        case .map(let members) where depth > 0: return members.lazy.compactMap { $0.value.firstText(depth: depth - 1) }.first
        default: return nil
        }
    }
}
