history = context[:conversation_history] || []
kinds = history.map do |rec|
  case rec[:outcome_summary].to_s
  when /timeout/ then :timeout
  when /denied|forbidden/ then :auth
  else :other
  end
end
result = kinds.tally
