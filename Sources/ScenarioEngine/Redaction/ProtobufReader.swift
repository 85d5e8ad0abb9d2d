import Foundation

/// Protocol buffers' wire format without a schema: a message is fields in order; a
/// length-delimited field is text when it reads as text, else a nested message when it reads as
/// one, else bytes. A map entry is a message of a key (field 1) and a value (field 2), so a
/// credential's name and value stand side by side as they do in a map.
enum ProtobufReader {
    typealias Value = BinaryBodyReader.Value

    /// The fields of a message that takes all of `bytes`; `nil` when a byte does not fit.
    static func readMessage(_ bytes: [UInt8], depth: Int) -> [Value]? {
        readMessage(bytes[...], depth: depth)
    }

    /// gRPC's length-prefixed messages (a flag byte, a 4-byte big-endian length, the message);
    /// `nil` when the frames do not take all of `bytes` or a message is compressed (flag 1).
    static func readFrames(_ bytes: [UInt8]) -> Value? {
        var offset = 0
        var messages: [Value] = []
        while offset < bytes.count {
            guard bytes.count - offset >= 5, bytes[offset] == 0 else { return nil }
            let length = bytes[offset + 1..<offset + 5].reduce(0) { $0 << 8 | Int($1) }
            offset += 5
            guard length <= bytes.count - offset, let fields = readMessage(bytes[offset..<offset + length], depth: 0) else { return nil }
            messages.append(.list(fields))
            offset += length
        }
        return messages.isEmpty ? nil : .list(messages)
    }

    private static func readMessage(_ bytes: ArraySlice<UInt8>, depth: Int) -> [Value]? {
        guard depth <= BinaryBodyReader.maximumDepth, !bytes.isEmpty else { return nil }
        var offset = bytes.startIndex
        var fields: [Value] = []
        while offset < bytes.endIndex {
            guard let tag = varint(bytes, &offset), tag >> 3 >= 1 else { return nil }
            switch tag & 7 {
            case 0:
                guard varint(bytes, &offset) != nil else { return nil }
                fields.append(.opaque)
            case 1, 5:
                let width = tag & 7 == 1 ? 8 : 4
                guard bytes.endIndex - offset >= width else { return nil }
                offset += width
                fields.append(.opaque)
            case 2:
                guard let length = varint(bytes, &offset), length <= UInt64(bytes.endIndex - offset) else { return nil }
                let part = bytes[offset..<offset + Int(length)]
                offset += Int(length)
                if let text = BinaryBodyReader.text(part) {
                    fields.append(.text(text))
                } else if let nested = readMessage(part, depth: depth + 1) {
                    fields.append(.list(nested))
                } else {
                    fields.append(.opaque)
                }
            default:
                return nil  // groups (3, 4) are long gone from the format; 6 and 7 were never in it
            }
        }
        return fields
    }

    /// A base-128 varint of at most 10 bytes, consumed.
    private static func varint(_ bytes: ArraySlice<UInt8>, _ offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.endIndex, shift < 70 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
