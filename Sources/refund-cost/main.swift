import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

#if canImport(Glibc)
    import Glibc
#endif

FreedMemory.setPolicy()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
