/// What a secret was found as; placeholders and the printed counts name it.
package enum SecretKind: String, Sendable, CaseIterable, Comparable {
    case authorization, cookie
    case apiKey = "api-key"
    case jwt, token, password, secret, code

    /// Kinds order as declared, so reports list them the same way every time.
    package static func < (lhs: SecretKind, rhs: SecretKind) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
