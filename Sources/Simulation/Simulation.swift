import CGSL
import MessageDeferral
