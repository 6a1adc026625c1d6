history = context[:conversation_history] || []
types = {}
history.each do |rec|
  kw = rec[:kwargs]
  next unless kw.is_a?(Hash)
  kw.each do |key, value|
    types[key] ||= []
    types[key] << value.class.name unless types[key].include?(value.class.name)
  end
end
types.transform_values(&:sort)
