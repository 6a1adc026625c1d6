history = context[:conversation_history] || []
failed_at = history.index { |entry| entry.dig(:outcome_summary, :ok) == false }
around = []
unless failed_at.nil?
  history.each_with_index do |entry, i|
    around << [entry[:call_id], entry[:content]] if (i - failed_at).abs <= 2
  end
end
around
