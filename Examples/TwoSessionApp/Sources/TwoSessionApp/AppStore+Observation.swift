#if canImport(Combine)
    import Combine

    /// SwiftUI views observe the store's `@Published` properties.
    extension AppStore: ObservableObject {}
#endif
