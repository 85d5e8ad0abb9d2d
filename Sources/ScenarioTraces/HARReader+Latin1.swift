import Foundation
import ScenarioEngine

extension HARReader {
    /// The bytes of a body written as text. A tool that writes bytes it could not decode as
    /// ISO 8859-1 text (mitmproxy does, for a body that is mostly printable) leaves every
    /// character at U+00FF or below; for a binary media type (MessagePack, protobuf,
    /// `application/octet-stream`) those characters are the bytes, so the body reads as it was
    /// sent. Any other text is its UTF-8.
    static func textBody(_ text: String, mimeType: String?) -> Data {
        guard let mimeType, BodyKind.isBinaryType(mimeType), text.unicodeScalars.contains(where: { $0.value >= 0x80 }),
            text.unicodeScalars.allSatisfy({ $0.value <= 0xFF })
        else { return Data(text.utf8) }
        return Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }
}
