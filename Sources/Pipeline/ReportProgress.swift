/// Progress a run reports while it reads cost files.
package struct ReportProgress: Sendable {
    package var file: String
    package var bytes: Int
    package var rows: Int
    /// What `rows` counts: cost rows, or lines of the App Store files.
    package var unit = "rows"
}
