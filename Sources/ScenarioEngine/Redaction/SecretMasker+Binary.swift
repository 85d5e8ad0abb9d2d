import Foundation

/// Masks of the secret's own length, for bytes whose lengths must hold.
extension SecretMasker {
    /// `mask` cut or filled with `x` to `count` bytes: what a secret of `count` bytes becomes
    /// inside a binary body, so a MessagePack or protobuf length before it still adds up.
    static func fitted(_ mask: [UInt8], to count: Int) -> [UInt8] {
        guard mask.count != count else { return mask }
        guard mask.count < count else { return Array(mask.prefix(count)) }
        return mask + [UInt8](repeating: UInt8(ascii: "x"), count: count - mask.count)
    }

    /// The places, in the list the masker was made from, of the secrets that stand in `body`
    /// (read as a binary body is masked: anywhere, as is, escaped or in base64).
    package func sources(inBinary body: Data) -> Set<Int> {
        var found: Set<Int> = []
        _ = mask(binary: body) { found.insert($0) }
        return found
    }
}
