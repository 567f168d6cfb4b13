"""Live games on the pure rules core: seats and their tokens, seating, plans and
answers, computer seats, what each seat sees, and the work kept off the event loop."""
