/// What a run says but does not stop for, gathered where each stage finds it and printed by the
/// command in one place (swift-openapi-generator's `DiagnosticCollector`): no stage hands its
/// warnings up by hand.
package final class DiagnosticCollector {
    package private(set) var diagnostics: [Diagnostic] = []

    package init() {}

    package func emit(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    package func emit(contentsOf more: [Diagnostic]) { diagnostics += more }

    /// Each text a warning.
    package func warn(_ texts: [String]) { diagnostics += texts.map { Diagnostic.warning($0) } }
}
