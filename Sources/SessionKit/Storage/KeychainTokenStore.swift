#if canImport(Security)
    import Foundation
    import Security

    /// A ``TokenStore`` in the keychain (Apple platforms): one generic-password item holding the
    /// JSON-encoded tokens, readable only while the device is unlocked and never synced.
    public struct KeychainTokenStore: TokenStore {
        /// The error a keychain call reported.
        public struct KeychainError: Error, Sendable, Hashable {
            /// The `OSStatus` the Security framework returned.
            public let status: Int32
        }

        private let service: String
        private let account: String

        /// Creates a store for one item, identified by service and account.
        public init(service: String, account: String = "session-tokens") {
            self.service = service
            self.account = account
        }

        /// The tokens in the keychain item, or `nil` when it is missing or unreadable.
        public func load() async -> SessionTokens? {
            var query = baseQuery
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            guard status == errSecSuccess, let data = result as? Data else { return nil }
            // A damaged item reads as "no session" rather than failing the launch.
            guard !JSONNesting.isTooDeep(data) else { return nil }
            return try? JSONDecoder().decode(SessionTokens.self, from: data)
        }

        /// Updates the keychain item with the tokens, adding it if absent.
        public func save(_ tokens: SessionTokens) async throws {
            let data = try JSONEncoder().encode(tokens)
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            ]
            let updateStatus = SecItemUpdate(baseQuery as CFDictionary, attributes as CFDictionary)
            if updateStatus == errSecSuccess { return }
            guard updateStatus == errSecItemNotFound else {
                throw KeychainError(status: updateStatus)
            }
            let addQuery = baseQuery.merging(attributes) { _, new in new }
            let addStatus = SecItemAdd(addQuery as CFDictionary, nil)
            guard addStatus == errSecSuccess else { throw KeychainError(status: addStatus) }
        }

        /// Deletes the keychain item; a missing item is not an error.
        public func clear() async throws {
            let status = SecItemDelete(baseQuery as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw KeychainError(status: status)
            }
        }

        private var baseQuery: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }
    }
#endif
