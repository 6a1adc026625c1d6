log = context[:conversation_history] || []
flags = log.map { |r| r[:outcome_summary] && r[:outcome_summary][:ok] == true }
groups = flags.slice_when { |a, b| a != b }.select(&:first)
lengths = groups.map(&:size)
{ ok_runs: lengths, longest: lengths.max || 0, records: log.size }
